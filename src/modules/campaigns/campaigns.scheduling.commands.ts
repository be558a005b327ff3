import type { Db } from '../../core/db/database.js';
import { AppError } from '../../core/errors.js';
import {
  type CampaignKind,
  campaignKinds,
  type SchedulingInstance,
  type SchedulingLog,
} from './campaigns.kinds.service.js';

/** How many campaigns the scheduling takes of each kind in one pass. */
const BATCH = 100;

/** What one scheduling pass did for one kind. */
export interface KindScheduling {
  kind: string;
  launched: number;
  /** Mail queued by the kind's other due work (training: reminders). */
  queued: number;
  completed: number;
}

/** Launches the kind's scheduled campaigns whose start has come. Returns how many. */
export async function launchDueCampaigns(
  db: Db,
  kind: CampaignKind,
  now: number,
  log?: SchedulingLog,
  instance?: SchedulingInstance,
): Promise<number> {
  // Cross-account by design: the scheduler launches every account's due campaigns, each in its account.
  let launched = 0;
  for (const campaign of await kind.due.find(db, now, BATCH)) {
    try {
      await kind.due.launch(db, campaign, now, instance);
      launched++;
    } catch (err) {
      // Another instance launched it first, or it was unscheduled meanwhile: nothing to do.
      if (err instanceof AppError && err.code === 'campaign_status_conflict') continue;
      if (err instanceof AppError && (await kind.due.refused?.(db, campaign, err, now, log))) continue;
      throw err;
    }
  }
  return launched;
}

/** Completes the kind's running campaigns whose end has come. Returns how many. */
export async function completeEndedCampaigns(db: Db, kind: CampaignKind, now: number): Promise<number> {
  // Cross-account by design: the scheduler completes every account's ended campaigns, each in its account.
  if (!kind.ended) return 0;
  let completed = 0;
  for (const campaign of await kind.ended.find(db, now, BATCH)) {
    try {
      await kind.ended.complete(db, campaign, now);
      completed++;
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'campaign_status_conflict')) throw err;
    }
  }
  return completed;
}

/**
 * One scheduling pass over every registered kind, in their order: its due launches, its other due
 * mail, its ended campaigns. A failing step is logged and the others still run; several instances
 * may run passes at once (each move is guarded).
 */
export async function runCampaignScheduling(
  db: Db,
  now: number,
  log: SchedulingLog,
  instance?: SchedulingInstance,
): Promise<KindScheduling[]> {
  const pass: KindScheduling[] = [];
  for (const kind of campaignKinds()) {
    const done: KindScheduling = { kind: kind.name, launched: 0, queued: 0, completed: 0 };
    try {
      done.launched = await launchDueCampaigns(db, kind, now, log, instance);
    } catch (err) {
      log.error({ err }, kind.due.failure);
    }
    if (kind.dueMail) {
      try {
        done.queued = await kind.dueMail.queue(db, now);
      } catch (err) {
        log.error({ err }, kind.dueMail.failure);
      }
    }
    if (kind.ended) {
      try {
        done.completed = await completeEndedCampaigns(db, kind, now);
        await kind.ended.afterwards?.(db, now);
      } catch (err) {
        log.error({ err }, kind.ended.failure);
      }
    }
    pass.push(done);
  }
  return pass;
}
