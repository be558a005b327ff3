/**
 * The campaigns context: one lifecycle for every kind of campaign — its statuses, actions and
 * moves (campaigns.lifecycle.model.ts), the guarded move and delete (campaigns.transitions.commands.ts),
 * its targets (campaigns.targets.service.ts) and the scheduling of due and ended campaigns
 * (campaigns.scheduling.commands.ts), which runs every registered kind (campaigns.kinds.service.ts).
 *
 * A third kind (say a continuous per-person phishing programme) plugs in with three things of its
 * own, in its own module:
 * - its descriptor, a `CampaignKind`: its name, `campaignLifecycle(…)` naming its statuses and how
 *   its 409s name it, how to find its due (and ended) campaigns; beside it its `CampaignRows`
 *   (lock, update, remove, 404), with which `moveCampaign` schedules, stops and archives it;
 * - its launch: the command `due.launch` calls (and `ended.complete`, if it ends by itself);
 * - its results: what it records and shows, which are its own.
 * It registers the descriptor in the `// Campaign kinds` block of src/subscriptions.ts; the
 * scheduler then runs it after the others, and its targets use `replaceTargetGroups` with its tables.
 */

export {
  type CampaignKind,
  type CampaignOfAccount,
  campaignKinds,
  registerCampaignKind,
  type SchedulingInstance,
  type SchedulingLog,
} from './campaigns.kinds.service.js';
export {
  type CampaignAction,
  type CampaignLifecycle,
  type CampaignMove,
  campaignLifecycle,
  checkHasTargets,
  fieldsLocked,
  type LaunchTrigger,
  LIFECYCLE_STATUSES,
  type LifecycleStatus,
  statusStamp,
} from './campaigns.lifecycle.model.js';
export {
  completeEndedCampaigns,
  type KindScheduling,
  launchDueCampaigns,
  runCampaignScheduling,
} from './campaigns.scheduling.commands.js';
export type { CampaignTables, GroupRef } from './campaigns.targets.model.js';
export {
  knownGroupIds,
  replaceCampaignCourseKeys,
  replaceTargetGroups,
  targetGroupsOfCampaigns,
} from './campaigns.targets.service.js';
export {
  type CampaignRows,
  deleteCampaignOfKind,
  type MoveCampaignProps,
  type MoveValues,
  moveCampaign,
} from './campaigns.transitions.commands.js';
