import type { Db } from '../db/database.js';
import { launchDueCampaignsOfAllAccounts } from '../modules/campaigns/campaigns.launch.js';
import { queueDueRemindersOfAllAccounts } from '../modules/campaigns/campaigns.reminders.js';
import { emitOverdueEnrollmentsOfAllAccounts } from '../modules/campaigns/campaigns.webhooks.js';
import { deleteExpiredIdempotencyKeysOfAllAccounts } from '../modules/idempotency/idempotency.repository.js';
import { completeEndedPhishingCampaignsOfAllAccounts } from '../modules/phishing/phishing.campaigns.transitions.js';
import { catchUpSimulationOutcomesOfAllAccounts } from '../modules/phishing/phishing.delivery.js';
import { launchDuePhishingCampaignsOfAllAccounts } from '../modules/phishing/phishing.launch.js';
import { settleTrackingHitsOfAllAccounts } from '../modules/phishing/phishing.settle.js';
import type { WorkerLog } from './mail-worker.js';

export interface ScheduledWork {
  launched: number;
  reminders: number;
  /** Phishing campaigns launched (their window opened) and completed (window and grace ended). */
  phishingLaunched?: number;
  phishingCompleted?: number;
  /** Enrollments found overdue (each emits `training.enrollment_overdue` once). */
  overdue?: number;
  /** Tracking hits settled, and of them found in a scanner's burst (phishing.settle.ts). */
  hitsSettled?: number;
  hitsReclassified?: number;
  /** People enrolled in remedial training once their failing hit settled (their invitations queued). */
  remedialEnrolled?: number;
  /** First clicks announced once settled (`phishing.simulation_clicked`). */
  clicksAnnounced?: number;
}

/**
 * One pass of the scheduler: launch the scheduled campaigns whose start has come, then queue the
 * reminder rounds that are due. Each step is safe to run on several instances at once, and a
 * failing step is logged without stopping the other.
 */
export async function runScheduledWork(db: Db, now: number, log: WorkerLog): Promise<ScheduledWork> {
  // Cross-account by design: one pass serves every account's campaigns.
  const work: ScheduledWork = { launched: 0, reminders: 0 };
  try {
    work.launched = await launchDueCampaignsOfAllAccounts(db, now);
  } catch (err) {
    log.error({ err }, 'scheduler: could not launch scheduled campaigns');
  }
  try {
    work.reminders = await queueDueRemindersOfAllAccounts(db, now);
  } catch (err) {
    log.error({ err }, 'scheduler: could not queue reminders');
  }
  try {
    const launched = await launchDuePhishingCampaignsOfAllAccounts(db, now, log);
    if (launched > 0) {
      work.phishingLaunched = launched;
      // Counted with the launches too: the simulations queued wake the mail worker.
      work.launched += launched;
    }
  } catch (err) {
    log.error({ err }, 'scheduler: could not launch scheduled phishing campaigns');
  }
  try {
    const completed = await completeEndedPhishingCampaignsOfAllAccounts(db, now);
    if (completed > 0) work.phishingCompleted = completed;
    await catchUpSimulationOutcomesOfAllAccounts(db, now);
  } catch (err) {
    log.error({ err }, 'scheduler: could not complete phishing campaigns');
  }
  try {
    // Tracking hits whose burst window passed: scanners' bursts made automated, failures enrolled.
    const settled = await settleTrackingHitsOfAllAccounts(db, now);
    if (settled.settled > 0) {
      work.hitsSettled = settled.settled;
      if (settled.reclassified > 0) work.hitsReclassified = settled.reclassified;
      if (settled.enrolled > 0) work.remedialEnrolled = settled.enrolled;
      if (settled.announced > 0) work.clicksAnnounced = settled.announced;
    }
  } catch (err) {
    log.error({ err }, 'scheduler: could not settle tracking hits');
  }
  try {
    // `training.enrollment_overdue`, once per enrollment; a batch of 1,000 a pass.
    const overdue = await emitOverdueEnrollmentsOfAllAccounts(db, now);
    if (overdue > 0) work.overdue = overdue;
  } catch (err) {
    log.error({ err }, 'scheduler: could not find overdue enrollments');
  }
  try {
    // Idempotency keys are replayed for 24 hours; then their rows go, a batch a pass.
    await deleteExpiredIdempotencyKeysOfAllAccounts(db, now, 5000);
  } catch (err) {
    log.error({ err }, 'scheduler: could not delete expired idempotency keys');
  }
  if (work.launched + work.reminders + (work.phishingCompleted ?? 0) + (work.hitsReclassified ?? 0) > 0)
    log.info({ ...work }, 'scheduler: campaigns launched, reminders queued');
  return work;
}

export interface SchedulerOptions {
  db: Db;
  intervalMs: number;
  log: WorkerLog;
  /** Called after a pass that queued mail (to wake the mail worker). */
  onQueued?: () => void;
  /** Called after a pass that may have queued webhooks (to wake the webhook worker). */
  onWebhooks?: () => void;
}

/** Runs `runScheduledWork` at once and then every `intervalMs`; passes never overlap. */
export function startScheduler(options: SchedulerOptions): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const pass = () => {
    running = runScheduledWork(options.db, Date.now(), options.log).then((work) => {
      if (work.launched + work.reminders + (work.remedialEnrolled ?? 0) > 0) options.onQueued?.();
      const webhooks = (work.overdue ?? 0) + (work.phishingCompleted ?? 0) + (work.clicksAnnounced ?? 0);
      if (work.launched + webhooks + (work.remedialEnrolled ?? 0) > 0) options.onWebhooks?.();
      if (!stopped) timer = setTimeout(pass, options.intervalMs);
    });
  };
  pass();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
