import type { Db } from '../../../core/db/database.js';
import { enrollNewMembers } from '../../training/index.js';
import { emitSimulationClicked } from '../simulation/simulation.domain-events.commands.js';
import type { NewEvent } from '../simulation/simulation.events.repository.js';
import type { FigureChanges, FigureMembership } from '../simulation/simulation.figures.repository.js';
import {
  type RecipientWithCampaign,
  remedialCampaignOf,
  updateRecipientSteps,
} from '../simulation/simulation.recipients.repository.js';
import { enrollmentIdOf, markClickAnnounced } from './tracking.settle.repository.js';

/**
 * What a person's failure sets off once it is certain (docs/phishing-plan.md, "Settling"): the
 * first click's webhook event and the remedial enrollment with its invitation. A browser's open
 * or click is certain once it settled (no scanner's burst took it); a form post or button press
 * is certain at once. Both run in the caller's transaction, which holds the recipient's row, so
 * each happens once however many hits or settling passes race.
 */

/** Where the effects of a transaction of steps are gathered (a `StepBatch`). */
export interface EffectsBatch {
  readonly figures: FigureChanges;
  addEvent(accountId: number, event: NewEvent): void;
}

type Recipient = RecipientWithCampaign;

const DAY_MS = 86_400_000;

const failedAt = (r: Recipient) => (r.remedial_on === 'submit' ? r.submitted_at : r.clicked_at);

/** Whether the recipient has something to announce: a first click not yet announced, or a failure not yet enrolled. */
export function awaitsAnnouncement(r: Recipient): boolean {
  if (r.clicked_at !== null && r.click_announced_at === null) return true;
  return (
    r.remedial_campaign_id !== null &&
    r.training_assigned_at === null &&
    r.employee_deleted_at === null &&
    failedAt(r) !== null
  );
}

/**
 * Announces what the recipient's settled steps say, once: the `phishing.simulation_clicked`
 * event of the first click, then the remedial enrollment. Returns whether training was assigned now.
 */
export async function announceSettled(
  trx: Db,
  batch: EffectsBatch,
  recipient: Recipient,
  member: FigureMembership,
  at: number,
): Promise<boolean> {
  if (recipient.clicked_at !== null && recipient.click_announced_at === null) {
    await emitSimulationClicked(trx, recipient);
    await markClickAnnounced(trx, recipient.account_id, recipient.id, at);
    recipient.click_announced_at = at;
  }
  return assignTrainingIfFailed(trx, batch, recipient, member, at);
}

/**
 * Enrolls a person who reached the campaign's failing step in its remedial training, once,
 * through the training campaigns' own command (the enrollment, `training.enrollment_created` and
 * the invitation queued), then `training_assigned_at`, an event and the figure.
 */
export async function assignTrainingIfFailed(
  trx: Db,
  batch: EffectsBatch,
  recipient: Recipient,
  member: FigureMembership,
  at: number,
): Promise<boolean> {
  if (recipient.remedial_campaign_id === null || recipient.training_assigned_at !== null) return false;
  if (recipient.employee_deleted_at !== null || failedAt(recipient) === null) return false;
  const training = await remedialCampaignOf(trx, recipient.account_id, recipient.remedial_campaign_id);
  if (training?.status !== 'active') return false;
  // Already enrolled in that training (it has no groups, so only by an earlier failure): kept.
  await enrollNewMembers(trx, {
    accountId: recipient.account_id,
    campaignIds: [training.id],
    employeeIds: [recipient.employee_id],
    now: at,
    // Due the campaign's number of days after the failure; the training's reminders chase it.
    dueAt: at + recipient.remedial_due_days * DAY_MS,
  });
  const enrollmentId = await enrollmentIdOf(trx, recipient.account_id, training.id, recipient.employee_id);
  // A deactivated employee is not enrolled: nothing assigned.
  if (enrollmentId === null) return false;
  await updateRecipientSteps(trx, recipient.account_id, recipient.id, {
    training_assigned_at: at,
    enrollment_id: enrollmentId,
  });
  recipient.training_assigned_at = at;
  recipient.enrollment_id = enrollmentId;
  batch.addEvent(recipient.account_id, {
    campaignId: recipient.campaign_id,
    recipientId: recipient.id,
    kind: 'training_assigned',
    at,
    clientAddress: null,
    userAgent: null,
    classification: 'human',
    reason: 'remedial_enrollment',
  });
  batch.figures.addToFigures(recipient.campaign_id, member, { training_assigned: 1 });
  return true;
}
