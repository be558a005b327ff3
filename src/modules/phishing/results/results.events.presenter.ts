import { iso, isoOrNull } from '../../../core/time.js';
import { CLASSIFICATION_REASONS } from '../simulation/simulation.classify.model.js';
import type { EventRow } from '../simulation/simulation.events.repository.js';
import { RECLASSIFIABLE } from '../tracking/tracking.steps.model.js';

/** What the reasons of system events mean (the others are CLASSIFICATION_REASONS). */
export const SYSTEM_REASONS: Record<string, string> = {
  smtp_accepted: 'The mail server accepted the message.',
  delivery_failed: 'The message could not be delivered.',
  remedial_enrollment: 'Enrolled in the campaign’s remedial training.',
  report_api: 'Reported through the Customer API with the simulation’s token.',
  report_message: 'Reported by forwarding the email to the Customer API.',
  report_addin: 'Reported with the Outlook report button.',
  report_mailbox: 'Reported by forwarding the email to the reporting address.',
};

export function reasonText(reason: string): string {
  return (CLASSIFICATION_REASONS as Record<string, string>)[reason] ?? SYSTEM_REASONS[reason] ?? reason;
}

function fieldNames(json: string | null): string[] {
  if (json === null) return [];
  try {
    const names = JSON.parse(json);
    return Array.isArray(names) ? names.map(String) : [];
  } catch {
    return [];
  }
}

/** One event of a recipient's timeline, as the admin API shows it. */
export function presentPhishingEvent(event: EventRow, names: ReadonlyMap<number, string> = new Map()) {
  return {
    id: Number(event.id),
    kind: event.kind,
    occurred_at: iso(event.occurred_at),
    client_address: event.client_address,
    user_agent: event.user_agent,
    classification: event.classification,
    reason: event.reason,
    reason_text: reasonText(event.reason),
    field_names: fieldNames(event.field_names),
    reclassifiable: RECLASSIFIABLE.has(event.kind),
    reclassification:
      event.reclassified_at === null
        ? null
        : {
            original_classification: event.original_classification,
            by: event.reclassified_by === null ? null : Number(event.reclassified_by),
            by_name:
              event.reclassified_by === null ? null : (names.get(Number(event.reclassified_by)) ?? null),
            at: isoOrNull(event.reclassified_at),
            reason: event.reclassified_reason ?? '',
          },
  };
}
