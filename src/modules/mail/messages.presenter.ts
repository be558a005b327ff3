import { iso, isoOrNull } from '../../time.js';
import { withoutTrackingImage } from '../phishing/phishing.templates.js';
import type { MessageDetailRow, MessageRow } from './messages.repository.js';

/**
 * A message as the outbox shows it. Until an attempt hands it over, `to_address` is where it will
 * go; `attempts_in_doubt` > 0: it may have arrived more than once (each copy the same Message-ID).
 */
export function presentMessage(row: MessageRow) {
  const pending = row.status === 'queued' || row.status === 'sending';
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    to_address: row.to_address ?? row.email ?? null,
    subject: row.subject,
    campaign: row.campaign_id === null ? null : { id: row.campaign_id, name: row.campaign_name ?? '' },
    employee:
      row.employee_id === null
        ? null
        : {
            id: row.employee_id,
            first_name: row.first_name ?? '',
            last_name: row.last_name ?? '',
            email: row.email ?? '',
          },
    attempts: row.attempts,
    attempts_in_doubt: row.attempts_in_doubt,
    last_error: row.last_error,
    transport: row.transport,
    created_at: iso(row.created_at),
    sent_at: isoOrNull(row.sent_at),
    next_attempt_at: pending ? iso(row.next_attempt_at) : null,
  };
}

/** The message with what was sent (null until it is). */
export function presentMessageDetail(row: MessageDetailRow) {
  const html =
    row.kind === 'simulation' && row.body_html ? withoutTrackingImage(row.body_html) : row.body_html;
  return { ...presentMessage(row), body_text: row.body_text, body_html: html };
}
