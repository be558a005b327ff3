import { AppError, type FieldErrorCollector } from '../../core/errors.js';

/**
 * The lifecycle every kind of campaign shares: its statuses, the actions each allows, and where
 * each move between statuses goes. Pure. A kind names the statuses in its own words (a training
 * campaign under way is `active`, a phishing one `running`); the rules are the same.
 */

/** The statuses of the lifecycle, in their order, by the lifecycle's own names. */
export const LIFECYCLE_STATUSES = ['draft', 'scheduled', 'running', 'completed', 'archived'] as const;
export type LifecycleStatus = (typeof LIFECYCLE_STATUSES)[number];

export type CampaignAction = 'edit' | 'schedule' | 'unschedule' | 'launch' | 'stop' | 'archive' | 'delete';

const ACTIONS: Record<LifecycleStatus, CampaignAction[]> = {
  draft: ['edit', 'schedule', 'launch', 'archive', 'delete'],
  scheduled: ['edit', 'unschedule', 'launch'],
  running: ['edit', 'stop'],
  completed: ['edit', 'archive'],
  archived: [],
};

/** The actions that move a campaign to another status. */
export type CampaignMove = 'schedule' | 'unschedule' | 'launch' | 'stop' | 'archive';

/** Where each move may start and where it leads (a launch by the scheduler starts only from `scheduled`). */
const MOVES: Record<CampaignMove, { from: LifecycleStatus[]; to: LifecycleStatus }> = {
  schedule: { from: ['draft'], to: 'scheduled' },
  unschedule: { from: ['scheduled'], to: 'draft' },
  launch: { from: ['draft', 'scheduled'], to: 'running' },
  stop: { from: ['running'], to: 'completed' },
  archive: { from: ['draft', 'completed'], to: 'archived' },
};

/** Who launches: an administrator now, or the scheduler at the campaign's start. */
export type LaunchTrigger = 'now' | 'scheduled';

/** The lifecycle in a kind's own status names. */
export interface CampaignLifecycle<S extends string> {
  /** The kind's statuses, in the lifecycle's order. */
  statuses: S[];
  /** What a campaign in this status can do now. */
  allowedActions(status: S): CampaignAction[];
  /** Whether a campaign in this status may take this action. */
  allows(status: S, action: CampaignAction): boolean;
  /** The statuses a move may start from, and the one it leads to. */
  move(move: CampaignMove): { from: S[]; to: S };
  /** The statuses a launch may start from, by who launches. */
  launchFrom(trigger: LaunchTrigger): S[];
  /** Whether this status is the lifecycle's `status` (`running` is training's `active`). */
  is(status: S, lifecycleStatus: LifecycleStatus): boolean;
  /** The time stamps a move to this status sets besides the status (`completed_at`, `archived_at`). */
  stamp(status: S, now: number): { completed_at?: number; archived_at?: number };
  /** The 409 for an action the campaign's status does not allow. */
  refused(action: CampaignAction, status: S): AppError;
}

/**
 * The lifecycle for a kind: `names` gives the kind's name of each status, `noun` how its refusals
 * name a campaign ("Cannot stop a phishing campaign that is draft").
 */
export function campaignLifecycle<S extends string>(
  names: Record<LifecycleStatus, S>,
  noun: string,
): CampaignLifecycle<S> {
  const lifecycleOf = new Map<string, LifecycleStatus>(LIFECYCLE_STATUSES.map((s) => [names[s], s]));
  const named = (statuses: LifecycleStatus[]) => statuses.map((s) => names[s]);
  return {
    statuses: named([...LIFECYCLE_STATUSES]),
    allowedActions: (status) => ACTIONS[lifecycleOf.get(status) as LifecycleStatus] ?? [],
    allows: (status, action) =>
      ACTIONS[lifecycleOf.get(status) as LifecycleStatus]?.includes(action) ?? false,
    move: (move) => ({ from: named(MOVES[move].from), to: names[MOVES[move].to] }),
    launchFrom: (trigger) => named(trigger === 'now' ? MOVES.launch.from : ['scheduled']),
    is: (status, lifecycleStatus) => lifecycleOf.get(status) === lifecycleStatus,
    stamp: (status, now) => statusStamp(lifecycleOf.get(status) as LifecycleStatus, now),
    refused: (action, status) =>
      new AppError('campaign_status_conflict', { message: `Cannot ${action} a ${noun} that is ${status}` }),
  };
}

/** The time stamps a move to this status sets, besides the status itself. */
export function statusStamp(
  to: LifecycleStatus,
  now: number,
): { completed_at?: number; archived_at?: number } {
  if (to === 'completed') return { completed_at: now };
  if (to === 'archived') return { archived_at: now };
  return {};
}

/** The 409 for a change to fields that the campaign's status keeps fixed (as the API names them). */
export function fieldsLocked(fields: string[], status: string): AppError {
  return new AppError('campaign_field_locked', {
    message: `${fields.join(', ')} cannot change while the campaign is ${status}`,
  });
}

/** A campaign needs a target group before it is scheduled or launched. */
export function checkHasTargets(errors: FieldErrorCollector, groupIds: number[]): void {
  if (groupIds.length === 0) errors.add('group_ids', 'choose at least one target group');
}
