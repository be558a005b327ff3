import type {
  PhishingClassification,
  PhishingEventKind,
  PhishingRecipientStatus,
} from '../../../core/db/schema.js';
import type { HitHeaders, HitKind } from '../simulation/simulation.classify.model.js';
import type {
  FigureChanges,
  FigureDeltas,
  FigureMembership,
} from '../simulation/simulation.figures.repository.js';
import type {
  RecipientSteps,
  RecipientWithCampaign,
} from '../simulation/simulation.recipients.repository.js';

/**
 * The state model of a phishing recipient (docs/phishing-plan.md, "Area C"), pure: which steps a
 * person's event reaches (a click implies an open, a submit a click and an open; first times
 * only move earlier), the status those first times give, what a step changes in the figures,
 * the delay histograms and the activity, and which events an administrator may reclassify.
 * tracking.steps.commands.ts applies it to the database; tracking.steps.batch.commands.ts
 * gathers the writes of one transaction.
 */

export type StepTimes = Pick<
  RecipientSteps,
  'sent_at' | 'opened_at' | 'clicked_at' | 'submitted_at' | 'reported_at'
>;

const STEP_FIGURE: Record<keyof StepTimes, FigureDeltas> = {
  sent_at: { delivered: 1 },
  opened_at: { opened: 1 },
  clicked_at: { clicked: 1, phished: 1 },
  submitted_at: { submitted: 1 },
  reported_at: { reported: 1 },
};
const STEP_ACTIVITY = {
  sent_at: 'delivered',
  opened_at: 'opened',
  clicked_at: 'clicked',
  submitted_at: 'submitted',
  reported_at: 'reported',
} as const;
export const STEPS = Object.keys(STEP_FIGURE) as (keyof StepTimes)[];

const RAW: Partial<Record<PhishingEventKind, FigureDeltas>> = {
  opened: { raw_opens: 1 },
  clicked: { raw_clicks: 1 },
  submitted: { raw_submits: 1 },
};

/** The status of a recipient with these first times (`failed` stays while nothing happened). */
export function statusOf(times: StepTimes, current: PhishingRecipientStatus): PhishingRecipientStatus {
  if (times.submitted_at !== null) return 'submitted';
  if (times.clicked_at !== null) return 'clicked';
  if (times.opened_at !== null) return 'opened';
  if (current === 'failed') return 'failed';
  return times.sent_at !== null ? 'sent' : 'scheduled';
}

const earliest = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));

/** The first times after a human event of `kind` at `at` (implied steps included). */
export function timesAfter(times: StepTimes, kind: PhishingEventKind, at: number): StepTimes {
  const next = { ...times };
  const set = (step: keyof StepTimes) => {
    next[step] = earliest(next[step], at);
  };
  if (kind === 'opened' || kind === 'clicked' || kind === 'submitted') {
    set('opened_at');
    if (kind !== 'opened') set('clicked_at');
    if (kind === 'submitted') set('submitted_at');
  }
  if (kind === 'reported') set('reported_at');
  // A person's hit on a message whose delivery is not yet recorded: it was delivered.
  if (
    next.sent_at === null &&
    (kind === 'opened' || kind === 'clicked' || kind === 'submitted' || kind === 'reported')
  ) {
    next.sent_at = at;
  }
  return next;
}

/** The first times a recipient's human events give (what a reclassification recomputes). */
export function timesFromEvents(
  sentAt: number | null,
  events: readonly { kind: PhishingEventKind; occurred_at: number; classification: PhishingClassification }[],
): StepTimes {
  let times: StepTimes = {
    sent_at: sentAt,
    opened_at: null,
    clicked_at: null,
    submitted_at: null,
    reported_at: null,
  };
  for (const e of events) if (e.classification === 'human') times = timesAfter(times, e.kind, e.occurred_at);
  return times;
}

export interface RecipientFigures extends FigureMembership {
  campaign_id: number;
}

export function membershipOf(recipient: { group_ids: string; template_key: string }): FigureMembership {
  let groups: unknown = [];
  try {
    groups = JSON.parse(recipient.group_ids);
  } catch {
    groups = [];
  }
  return {
    group_ids: Array.isArray(groups) ? groups.map(Number).filter(Number.isFinite) : [],
    template_key: recipient.template_key,
  };
}

const delaySeconds = (from: number | null, to: number | null) =>
  from === null || to === null ? null : Math.max(0, Math.round((to - from) / 1000));

/** The raw counters a hit of this kind adds, whoever made it (an automated one also counts as such). */
export function rawFigures(kind: PhishingEventKind, classification: PhishingClassification): FigureDeltas {
  return {
    ...RAW[kind],
    ...(classification === 'automated' ? { automated_events: 1 } : {}),
  };
}

/** Whether the first times or the status moved (the recipient's row is then written). */
export function stepsChanged(
  before: StepTimes,
  after: StepTimes,
  statusBefore: PhishingRecipientStatus,
  statusAfter: PhishingRecipientStatus,
): boolean {
  if (statusAfter !== statusBefore) return true;
  for (const step of STEPS) if (after[step] !== before[step]) return true;
  return false;
}

/** The first times that moved, with their new values (what a reclassification writes). */
export function changedSteps(before: StepTimes, after: StepTimes): Partial<StepTimes> {
  const changed: Partial<StepTimes> = {};
  for (const step of STEPS) if (after[step] !== before[step]) changed[step] = after[step];
  return changed;
}

/** Whether a person's report came after their click (counted apart from the other reports). */
export function reportedAfterClick(t: StepTimes): boolean {
  return t.reported_at !== null && t.clicked_at !== null && t.reported_at >= t.clicked_at;
}

/** Whether a person was delivered the simulation and neither clicked nor reported it (a miss). */
export function missed(t: StepTimes): boolean {
  return t.sent_at !== null && t.clicked_at === null && t.reported_at === null;
}

const DERIVED = [
  ['reported_after_click', reportedAfterClick],
  ['missed', missed],
] as const;

/**
 * Applies the change of a recipient's first times to the figures: a step reached adds one
 * person, a step undone removes one, a first time moved moves its hour and its delay; the
 * counters derived from several steps (reported after a click, missed) follow their state.
 */
export function applyStepChanges(
  changes: FigureChanges,
  campaignId: number,
  member: FigureMembership,
  before: StepTimes,
  after: StepTimes,
  extra: FigureDeltas = {},
): void {
  const deltas: FigureDeltas = { ...extra };
  for (const [counter, holds] of DERIVED) {
    const change = Number(holds(after)) - Number(holds(before));
    if (change !== 0) deltas[counter] = (deltas[counter] ?? 0) + change;
  }
  for (const step of STEPS) {
    const was = before[step];
    const now = after[step];
    if (was === now) continue;
    const sign = was === null ? 1 : now === null ? -1 : 0;
    if (sign !== 0) {
      for (const [counter, n] of Object.entries(STEP_FIGURE[step]) as [keyof FigureDeltas, number][]) {
        deltas[counter] = (deltas[counter] ?? 0) + sign * n;
      }
    }
    if (was !== null) changes.addActivity(campaignId, was, STEP_ACTIVITY[step], -1);
    if (now !== null) changes.addActivity(campaignId, now, STEP_ACTIVITY[step], 1);
  }
  changes.addToFigures(campaignId, member, deltas);
  for (const [step, column] of [
    ['click', 'clicked_at'],
    ['report', 'reported_at'],
  ] as const) {
    const was = delaySeconds(before.sent_at, before[column]);
    const now = delaySeconds(after.sent_at, after[column]);
    if (was === now) continue;
    if (was !== null) changes.addDelay(campaignId, member, step, was, -1);
    if (now !== null) changes.addDelay(campaignId, member, step, now, 1);
  }
}

export const timesOf = (r: StepTimes): StepTimes => ({
  sent_at: r.sent_at,
  opened_at: r.opened_at,
  clicked_at: r.clicked_at,
  submitted_at: r.submitted_at,
  reported_at: r.reported_at,
});

/** One hit on a tracking route, or a report. */
export interface StepInput {
  kind: HitKind | 'report';
  at: number;
  method: string;
  headers: HitHeaders;
  clientAddress: string;
  /** A submission's field names (never the values). */
  fieldNames?: string[];
  /** For a report: how it came (the Customer API with a token or a message, the add-in, the reporting address). */
  reportReason?: 'report_api' | 'report_message' | 'report_addin' | 'report_mailbox';
}

export interface StepResult {
  /** False when nothing was recorded (the campaign is not running). */
  recorded: boolean;
  classification?: PhishingClassification;
  reason?: string;
  trainingAssigned?: boolean;
  /** The recipient as this step left it (committed when the caller is answered). */
  recipient?: RecipientWithCampaign;
}

export const EVENT_KIND: Record<StepInput['kind'], PhishingEventKind> = {
  open: 'opened',
  click: 'clicked',
  submit: 'submitted',
  interaction: 'interaction',
  report: 'reported',
};

/** Whether a person already interacted on the landing page (a human button press or form post). */
export function interactedOnPage(
  events: readonly { kind: PhishingEventKind; classification: PhishingClassification }[],
): boolean {
  return events.some(
    (e) => (e.kind === 'interaction' || e.kind === 'submitted') && e.classification === 'human',
  );
}

export function headerText(value: string | string[] | undefined): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.join(', ');
  return '';
}

export const RECLASSIFY_REASON_MAX = 500;
export const RECLASSIFIABLE: ReadonlySet<PhishingEventKind> = new Set([
  'opened',
  'clicked',
  'submitted',
  'interaction',
  'reported',
]);
