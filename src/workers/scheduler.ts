import { pruneAuditLog } from '../core/audit/audit-chain.js';
import type { Db } from '../core/db/database.js';
import { runCampaignScheduling, type SchedulingInstance } from '../modules/campaigns/index.js';
import { deleteExpiredIdempotencyKeysOfAllAccounts } from '../modules/integrations/idempotency/idempotency.repository.js';
import { settleTrackingHitsOfAllAccounts } from '../modules/phishing/tracking/tracking.settle.commands.js';
import { expireReportContent } from '../modules/phishing/triage/triage.service.js';
import { emitOverdueEnrollmentsOfAllAccounts } from '../modules/training/campaigns/campaigns.events.commands.js';
import { loadSubscriptions } from '../subscriptions.js';
import type { WorkerLog } from './mail-worker.js';

export interface ScheduledWork {
  launched: number;
  reminders: number;
  /** Phishing campaigns launched (their window opened) and completed (window and grace ended). */
  phishingLaunched?: number;
  phishingCompleted?: number;
  /** Enrollments found overdue (each emits `training.enrollment_overdue` once). */
  overdue?: number;
  /** Tracking hits settled, and of them found in a scanner's burst (tracking.settle.commands.ts). */
  hitsSettled?: number;
  hitsReclassified?: number;
  /** People enrolled in remedial training once their failing hit settled (their invitations queued). */
  remedialEnrolled?: number;
  /** First clicks announced once settled (`phishing.simulation_clicked`). */
  clicksAnnounced?: number;
  /** Real reports whose message content passed its account's retention and was deleted. */
  reportContentDeleted?: number;
  /** Audit log rows past their account's retention, deleted (each chain's anchor moved). */
  auditRowsDeleted?: number;
}

/**
 * One pass of the scheduler: every kind of campaign's scheduling (its due launches, training's
 * reminder rounds, phishing's ended campaigns; modules/campaigns), then the rest of the due work.
 * Each step is safe to run on several instances at once, and a failing step is logged without
 * stopping the others.
 */
export async function runScheduledWork(
  db: Db,
  now: number,
  log: WorkerLog,
  instance?: SchedulingInstance,
): Promise<ScheduledWork> {
  loadSubscriptions(); // the campaign kinds it runs, and the subscribers of what they emit
  // Cross-account by design: one pass serves every account's campaigns.
  const work: ScheduledWork = { launched: 0, reminders: 0 };
  // Every kind of campaign: its due launches, its due mail (training's reminders), its ended ones.
  for (const kind of await runCampaignScheduling(db, now, log, instance)) {
    // Counted with the launches, whatever the kind: what they queue wakes the mail worker.
    work.launched += kind.launched;
    work.reminders += kind.queued;
    if (kind.kind === 'phishing') {
      if (kind.launched > 0) work.phishingLaunched = kind.launched;
      if (kind.completed > 0) work.phishingCompleted = kind.completed;
    }
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
  try {
    // Reported mail past its account's retention (90 days by default): content deleted, verdicts kept.
    const expired = await expireReportContent(db, now);
    if (expired > 0) work.reportContentDeleted = expired;
  } catch (err) {
    log.error({ err }, 'scheduler: could not delete reported mail past its retention');
  }
  try {
    // The audit log past its account's retention (400 days by default, never under 180).
    const pruned = await pruneAuditLog(db, now);
    if (pruned > 0) work.auditRowsDeleted = pruned;
  } catch (err) {
    log.error({ err }, 'scheduler: could not delete audit log rows past their retention');
  }
  if (work.launched + work.reminders + (work.phishingCompleted ?? 0) + (work.hitsReclassified ?? 0) > 0)
    log.info({ ...work }, 'scheduler: campaigns launched, reminders queued');
  return work;
}

export interface SchedulerOptions {
  db: Db;
  intervalMs: number;
  log: WorkerLog;
  /** The instance's configuration, for what the kinds check again when they launch. */
  instance: SchedulingInstance;
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
    running = runScheduledWork(options.db, Date.now(), options.log, options.instance).then((work) => {
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
