import type { Db } from '../../../core/db/database.js';
import { slices } from '../../../core/db/id-slices.js';
import { enrollmentsAfter } from '../enrollments/enrollments.repository.js';
import { enrollmentStatus } from './campaigns.enrollments.service.js';
import type { TrainingCampaignChange, TrainingEvents } from './campaigns.events.model.js';
import { presentCampaign, presentEnrollment } from './campaigns.presenter.js';
import { getCampaign } from './campaigns.service.js';

/** Enrollments read per statement while describing them. */
const BATCH = 2000;

type CampaignEventType = NonNullable<TrainingEvents['campaign']>;
type EnrollmentEventType = NonNullable<TrainingEvents['enrollments']>['type'];

export type TrainingWebhookEvent =
  | { type: CampaignEventType; data: ReturnType<typeof presentCampaign> }
  | {
      type: EnrollmentEventType;
      data: { campaign_id: number; enrollment: ReturnType<typeof presentEnrollment> };
    };

/**
 * The webhook events of a training campaign's change, with `data` as the Customer API shows the
 * campaign and its enrollments (read inside the change's transaction; called only when an
 * endpoint listens).
 */
export async function presentTrainingChange(
  trx: Db,
  { accountId, campaignId, which, now }: TrainingCampaignChange,
): Promise<TrainingWebhookEvent[]> {
  const campaign = await getCampaign(trx, accountId, campaignId);
  const events: TrainingWebhookEvent[] = [];
  if (which.campaign) events.push({ type: which.campaign, data: presentCampaign(campaign) });
  const wanted = which.enrollments;
  if (!wanted) return events;
  const filter = { campaignId, dueAt: campaign.due_at, now };
  const idSlices = wanted.ids === 'all' ? [undefined] : slices(wanted.ids, BATCH);
  for (const ids of idSlices) {
    for (let after = 0; ; ) {
      const rows = await enrollmentsAfter(trx, accountId, { ...filter, enrollmentIds: ids }, after, BATCH);
      for (const row of rows) {
        const enrollment = { ...row, status: enrollmentStatus(row, row.due_at ?? campaign.due_at, now) };
        events.push({
          type: wanted.type,
          data: { campaign_id: campaignId, enrollment: presentEnrollment(enrollment) },
        });
      }
      if (rows.length < BATCH) break;
      after = (rows.at(-1) as { employee_id: number }).employee_id;
    }
  }
  return events;
}
