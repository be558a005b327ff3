import type { Db } from '../../../core/db/database.js';
import { AppError } from '../../../core/errors.js';
import { isoOrNull } from '../../../core/time.js';
import {
  adminNamesOfAnyAccount,
  eventOfCampaign,
  eventsOfRecipient,
} from '../simulation/simulation.events.repository.js';
import { recipientOfCampaign } from '../simulation/simulation.recipients.repository.js';
import { reclassifyPhishingEvent } from '../tracking/tracking.steps.commands.js';
import { presentPhishingEvent } from './results.events.presenter.js';
import { employeeOfAccount } from './results.repository.js';

/** A recipient of the account's campaign with every event, as the admin API's timeline shows it. */
export async function recipientTimeline(db: Db, accountId: number, campaignId: number, recipientId: number) {
  const recipient = await recipientOfCampaign(db, accountId, campaignId, recipientId);
  if (!recipient) throw new AppError('phishing_recipient_not_found');
  const [events, person] = await Promise.all([
    eventsOfRecipient(db, accountId, recipient.id),
    employeeOfAccount(db, accountId, recipient.employee_id),
  ]);
  const names = await adminNamesOfAnyAccount(
    db,
    events.flatMap((e) => (e.reclassified_by === null ? [] : [Number(e.reclassified_by)])),
  );
  return {
    recipient: {
      id: Number(recipient.id),
      employee_id: Number(recipient.employee_id),
      first_name: person?.first_name ?? 'Deleted employee',
      last_name: person?.last_name ?? `#${recipient.employee_id}`,
      email: person?.email ?? '',
      template: recipient.template_key,
      status: recipient.status,
      planned_at: isoOrNull(recipient.planned_at),
      sent_at: isoOrNull(recipient.sent_at),
      opened_at: isoOrNull(recipient.opened_at),
      clicked_at: isoOrNull(recipient.clicked_at),
      submitted_at: isoOrNull(recipient.submitted_at),
      reported_at: isoOrNull(recipient.reported_at),
      training_assigned_at: isoOrNull(recipient.training_assigned_at),
    },
    events: events.map((e) => presentPhishingEvent(e, names)),
  };
}

/** An administrator reclassifies one event (tracking.steps.commands.ts does the work); answers the event as shown now. */
export async function reclassifyEvent(
  db: Db,
  props: {
    accountId: number;
    campaignId: number;
    eventId: number;
    classification: 'human' | 'automated';
    reason: string;
    adminUserId: number;
  },
) {
  const reason = props.reason.trim();
  if (reason === '') throw new AppError('validation_failed', { details: { reason: ['must not be empty'] } });
  if (!(await eventOfCampaign(db, props.accountId, props.campaignId, props.eventId))) {
    throw new AppError('phishing_event_not_found');
  }
  const event = await reclassifyPhishingEvent(db, { ...props, reason });
  const names = await adminNamesOfAnyAccount(db, [props.adminUserId]);
  return presentPhishingEvent(event, names);
}
