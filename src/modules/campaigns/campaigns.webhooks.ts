import type { Db } from '../../db/database.js';
import { slices } from '../../db/id-slices.js';
import type { WebhookEventType } from '../webhooks/webhooks.catalogue.js';
import { emitWebhookEvents, type WebhookEventInput } from '../webhooks/webhooks.emit.js';
import { presentCampaign, presentEnrollment } from './campaigns.presenter.js';
import { markOverdueEnrollmentsOfAllAccounts } from './campaigns.scheduler.repository.js';
import { getCampaign } from './campaigns.service.js';
import { enrollmentsAfter } from './enrollments.repository.js';
import { enrollmentStatus } from './enrollments.service.js';

/** Enrollments read per statement while describing them. */
const BATCH = 2000;

export interface TrainingEvents {
  /** An event about the campaign itself. */
  campaign?: Extract<WebhookEventType, 'training.campaign_launched' | 'training.campaign_completed'>;
  /** Events about these enrollments of the campaign (`all`: every enrollment, a launch). */
  enrollments?: {
    type: Extract<
      WebhookEventType,
      'training.enrollment_created' | 'training.enrollment_completed' | 'training.enrollment_overdue'
    >;
    ids: readonly number[] | 'all';
  };
}

/**
 * Emits a training campaign's webhook events inside the caller's transaction, with `data` as the
 * Customer API shows the campaign and its enrollments. Reads them only when an endpoint listens.
 */
export function emitTrainingEvents(
  trx: Db,
  accountId: number,
  campaignId: number,
  which: TrainingEvents,
  now = Date.now(),
): Promise<number> {
  if (
    which.enrollments &&
    which.enrollments.ids !== 'all' &&
    which.enrollments.ids.length === 0 &&
    !which.campaign
  )
    return Promise.resolve(0);
  return emitWebhookEvents(
    trx,
    accountId,
    async () => {
      const campaign = await getCampaign(trx, accountId, campaignId);
      const events: WebhookEventInput[] = [];
      if (which.campaign) events.push({ type: which.campaign, data: presentCampaign(campaign) });
      const wanted = which.enrollments;
      if (!wanted) return events;
      const filter = { campaignId, dueAt: campaign.due_at, now };
      const idSlices = wanted.ids === 'all' ? [undefined] : slices(wanted.ids, BATCH);
      for (const ids of idSlices) {
        for (let after = 0; ; ) {
          const rows = await enrollmentsAfter(
            trx,
            accountId,
            { ...filter, enrollmentIds: ids },
            after,
            BATCH,
          );
          for (const row of rows) {
            const enrollment = { ...row, status: enrollmentStatus(row, campaign.due_at, now) };
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
    },
    now,
  );
}

/**
 * Finds the enrollments that became overdue (their campaign's due date passed, not completed)
 * and emits `training.enrollment_overdue` once for each, a batch a call, in one transaction
 * with their marks. Returns how many were found. The scheduler calls it.
 */
export async function emitOverdueEnrollmentsOfAllAccounts(
  db: Db,
  now: number,
  limit = 1000,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    // Cross-account by design: one pass serves every account; each account's events are its own.
    const found = await markOverdueEnrollmentsOfAllAccounts(trx, now, limit);
    const byCampaign = new Map<string, { accountId: number; campaignId: number; ids: number[] }>();
    for (const row of found) {
      const key = `${row.account_id}:${row.campaign_id}`;
      const entry = byCampaign.get(key) ?? {
        accountId: row.account_id,
        campaignId: row.campaign_id,
        ids: [],
      };
      entry.ids.push(row.id);
      byCampaign.set(key, entry);
    }
    for (const { accountId, campaignId, ids } of byCampaign.values()) {
      await emitTrainingEvents(
        trx,
        accountId,
        campaignId,
        { enrollments: { type: 'training.enrollment_overdue', ids } },
        now,
      );
    }
    return found.length;
  });
}
