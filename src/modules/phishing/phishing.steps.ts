import { type Db, dialectOf } from '../../db/database.js';
import type { PhishingClassification, PhishingEventKind, PhishingRecipientStatus } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { SETTLE_DELAY_MS, settlesLater } from './phishing.bursts.js';
import {
  AddressBurstCounter,
  type ClassificationReason,
  classifyHit,
  clickToPromote,
  type HitHeaders,
  type HitKind,
  PROMOTABLE_REASONS,
  promotesEarlierClick,
} from './phishing.classify.js';
import {
  eventOfCampaign,
  eventsOfRecipient,
  insertEvents,
  type NewEvent,
  promoteEvent,
  reclassifyEvent,
} from './phishing.events.repository.js';
import {
  applyFigureChanges,
  FigureChanges,
  type FigureDeltas,
  type FigureMembership,
} from './phishing.figures.repository.js';
import {
  type RecipientSteps,
  type RecipientWithCampaign,
  recipientForUpdate,
  recipientsForUpdate,
  updateRecipientSteps,
  writeRecipientSteps,
} from './phishing.recipients.repository.js';
import { announceSettled, awaitsAnnouncement } from './phishing.remedial.js';
import { normalizeClientAddress } from './phishing.scanners.js';
import { parsedScannerNetworksOf } from './phishing.settings-lookup.js';
import { clearAllSettling, recipientsStillSettling } from './phishing.settle.repository.js';
import { emitSimulationSteps } from './phishing.webhooks.js';

/**
 * The one state machine that moves a phishing recipient (docs/phishing-plan.md, "Area C").
 * Every hit is an event (append-only); a human one of a running campaign moves the recipient's
 * first times and status (only up; a click implies an open, a submit a click and an open), and
 * in the same transaction the figures, the delay histograms and the activity. What a failure
 * sets off (the first click's webhook, the remedial enrollment) waits until the hit settled
 * (phishing.bursts.ts, phishing.settle.ts). A reclassification recomputes the recipient from its
 * human events and applies the differences the same way.
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
const STEPS = Object.keys(STEP_FIGURE) as (keyof StepTimes)[];

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

/**
 * What one transaction of steps shares: the figure changes, added up and written at its end; the
 * events, inserted together (in order) at its end or before anything reads them; the recipients
 * it has already read (and locked), kept up to date as its steps move them.
 */
export class StepBatch {
  readonly figures = new FigureChanges();
  readonly recipients = new Map<number, RecipientWithCampaign>();
  #events: { accountId: number; event: NewEvent }[] = [];

  addEvent(accountId: number, event: NewEvent): void {
    this.#events.push({ accountId, event });
  }

  /** Inserts the events waiting (before a read of events in the same transaction). */
  async flushEvents(trx: Db): Promise<void> {
    if (this.#events.length === 0) return;
    const events = this.#events;
    this.#events = [];
    await insertEvents(trx, events);
  }

  /** The recipient, read under lock once per transaction. */
  async recipient(
    trx: Db,
    accountId: number,
    recipientId: number,
  ): Promise<RecipientWithCampaign | undefined> {
    const known = this.recipients.get(recipientId);
    if (known && known.account_id === accountId) return known;
    const row = await recipientForUpdate(trx, accountId, recipientId);
    if (row) this.recipients.set(recipientId, row);
    return row;
  }

  /** PostgreSQL: the batch's recipients read and locked in one statement (id order), not one round trip each. */
  async prefetch(trx: Db, keys: readonly { accountId: number; recipientId: number }[]): Promise<void> {
    if (dialectOf(trx) !== 'postgres' || keys.length < 2) return;
    const byAccount = new Map<number, Set<number>>();
    for (const { accountId, recipientId } of keys) {
      if (!byAccount.has(accountId)) byAccount.set(accountId, new Set());
      byAccount.get(accountId)?.add(recipientId);
    }
    for (const [accountId, ids] of [...byAccount].sort(([a], [b]) => a - b))
      for (const row of await recipientsForUpdate(trx, accountId, [...ids])) this.recipients.set(row.id, row);
  }

  /** Writes what is waiting: the events, then the figures (one upsert per touched row). */
  async finish(trx: Db): Promise<void> {
    await this.flushEvents(trx);
    await applyFigureChanges(trx, this.figures);
  }
}

/**
 * Applies the change of a recipient's first times to the figures: a step reached adds one
 * person, a step undone removes one, a first time moved moves its hour and its delay.
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
  /** For a report: `report_api` or `report_message`. */
  reportReason?: 'report_api' | 'report_message';
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

const EVENT_KIND: Record<StepInput['kind'], PhishingEventKind> = {
  open: 'opened',
  click: 'clicked',
  submit: 'submitted',
  interaction: 'interaction',
  report: 'reported',
};

export interface StepMachine {
  /** Counts distinct recipients per client address (per process: see docs/phishing-plan.md). */
  burst: AddressBurstCounter;
  /** Writes the hits of one turn of the event loop in one transaction (group commit), when set. */
  writer?: StepWriter;
}

export function createStepMachine(options: { batch?: Db } = {}): StepMachine {
  return {
    burst: new AddressBurstCounter(),
    ...(options.batch ? { writer: new StepWriter(options.batch) } : {}),
  };
}

type Work = (trx: Db, batch: StepBatch) => Promise<StepResult>;

/** Runs one hit's work in a transaction of its own. */
function alone(db: Db, work: Work): Promise<StepResult> {
  return db.transaction().execute(async (trx) => {
    const batch = new StepBatch();
    const result = await work(trx, batch);
    await batch.finish(trx);
    return result;
  });
}

/**
 * Group commit of tracking hits: the hits that arrive in one turn of the event loop are written
 * in one transaction, each as it would be alone and in their order, and each caller is answered
 * after that commit (a hit answered is written). Within the batch a recipient is read (and
 * locked) once, the events are inserted by one multi-row statement and the figures, activity and
 * delays are added up in memory and written as one upsert per touched row (`StepBatch`). A burst
 * of thousands of hits then costs a few statements and one commit per batch instead of ~10
 * statements and a commit per hit. If a batch fails, each of its hits is retried in a
 * transaction of its own, so one bad hit never loses another's.
 */
export class StepWriter {
  static readonly MAX_BATCH = 200;
  readonly #db: Db;
  #queue: {
    work: Work;
    key?: { accountId: number; recipientId: number };
    resolve: (r: StepResult) => void;
    reject: (err: unknown) => void;
  }[] = [];
  #scheduled = false;

  constructor(db: Db) {
    this.#db = db;
  }

  submit(work: Work, key?: { accountId: number; recipientId: number }): Promise<StepResult> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ work, ...(key ? { key } : {}), resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => void this.#flush());
      }
    });
  }

  async #flush(): Promise<void> {
    const batch = this.#queue.splice(0, StepWriter.MAX_BATCH);
    try {
      if (batch.length === 1) {
        const [one] = batch;
        await alone(this.#db, one!.work).then(one!.resolve, one!.reject);
      } else if (batch.length > 1) {
        let results: StepResult[] = [];
        try {
          results = await this.#db.transaction().execute(async (trx) => {
            const shared = new StepBatch();
            await shared.prefetch(
              trx,
              batch.flatMap((item) => (item.key ? [item.key] : [])),
            );
            const out: StepResult[] = [];
            for (const item of batch) out.push(await item.work(trx, shared));
            await shared.finish(trx);
            return out;
          });
          for (const [i, item] of batch.entries()) item.resolve(results[i] as StepResult);
        } catch {
          for (const item of batch) await alone(this.#db, item.work).then(item.resolve, item.reject);
        }
      }
    } finally {
      if (this.#queue.length > 0) setImmediate(() => void this.#flush());
      else this.#scheduled = false;
    }
  }
}

/**
 * Records one hit of a recipient found by its token (or a report) and moves the recipient when
 * it is a person's and the campaign is running. A campaign that is not running records nothing
 * and changes nothing (its links only show the teachable page).
 */
export async function recordStep(
  db: Db,
  machine: StepMachine,
  found: RecipientWithCampaign,
  input: StepInput,
): Promise<StepResult> {
  if (found.campaign_status !== 'running') return { recorded: false };
  const accountId = found.account_id;
  const kind = EVENT_KIND[input.kind];
  const userAgent = headerText(input.headers['user-agent']);
  // One spelling per client, as the burst rule reads the recorded hits by address.
  const clientAddress = input.clientAddress ? normalizeClientAddress(input.clientAddress) : '';

  let classification: PhishingClassification;
  let reason: string;
  if (input.kind === 'report') {
    classification = 'human';
    reason = input.reportReason ?? 'report_api';
  } else {
    const recent = machine.burst.touch(clientAddress, found.id, input.at, accountId);
    const hit = {
      kind: input.kind,
      at: input.at,
      method: input.method,
      headers: input.headers,
      clientAddress,
    };
    const context = {
      deliveredAt: found.sent_at,
      settings: {
        automatedWindowSeconds: found.automated_window_seconds,
        scannerNetworks: await parsedScannerNetworksOf(db, accountId),
      },
      recentRecipientsFromAddress: recent,
      earlierHumanInteraction: found.submitted_at !== null,
    };
    let verdict = classifyHit(hit, context);
    // Timing alone made it automated: a person who already interacted on the page stays one.
    if (verdict.classification === 'automated' && PROMOTABLE_REASONS.has(verdict.reason)) {
      const events = await eventsOfRecipient(db, accountId, found.id);
      if (
        events.some(
          (e) => (e.kind === 'interaction' || e.kind === 'submitted') && e.classification === 'human',
        )
      ) {
        verdict = classifyHit(hit, { ...context, earlierHumanInteraction: true });
      }
    }
    classification = verdict.classification;
    reason = verdict.reason;
  }
  // A browser's open or click waits until no scanner's burst can claim it (phishing.settle.ts).
  const settles = settlesLater(input.kind, { classification, reason });

  const work: Work = async (trx, batch) => {
    const recipient = await batch.recipient(trx, accountId, found.id);
    if (recipient?.campaign_status !== 'running') return { recorded: false };
    const member = membershipOf(recipient);
    batch.addEvent(accountId, {
      campaignId: recipient.campaign_id,
      recipientId: recipient.id,
      kind,
      at: input.at,
      clientAddress: clientAddress || null,
      userAgent: userAgent || null,
      classification,
      reason,
      ...(input.fieldNames ? { fieldNames: input.fieldNames } : {}),
      ...(settles ? { settlesAt: input.at + SETTLE_DELAY_MS } : {}),
    });
    const raw: FigureDeltas = {
      ...RAW[kind],
      ...(classification === 'automated' ? { automated_events: 1 } : {}),
    };
    if (classification !== 'human') {
      batch.figures.addToFigures(recipient.campaign_id, member, raw);
      return { recorded: true, classification, reason };
    }

    const before = timesOf(recipient);
    let after = timesAfter(before, kind, input.at);
    // A person on the landing page: their click that only timing made automated counts.
    if (
      input.kind !== 'report' &&
      promotesEarlierClick({ kind: input.kind }, { classification, reason: reason as ClassificationReason })
    ) {
      await batch.flushEvents(trx);
      const clicks = (await eventsOfRecipient(trx, accountId, recipient.id))
        .filter((e) => e.kind === 'clicked')
        .map((e) => ({
          ...e,
          at: e.occurred_at,
          clientAddress: e.client_address ?? '',
          userAgent: e.user_agent ?? '',
          reason: e.reason as ClassificationReason,
        }));
      const promoted = clickToPromote(
        { at: input.at, clientAddress, userAgent: userAgent.slice(0, 512) },
        clicks,
      );
      if (promoted) {
        await promoteEvent(trx, accountId, promoted.id, reason);
        raw.automated_events = (raw.automated_events ?? 0) - 1;
        after = timesAfter(after, 'clicked', promoted.occurred_at);
      }
    }
    applyStepChanges(batch.figures, recipient.campaign_id, member, before, after, raw);
    const status = statusOf(after, recipient.status);
    let changed = status !== recipient.status;
    for (const step of STEPS) if (after[step] !== before[step]) changed = true;
    if (changed) {
      // The row is locked (read for update) and `after` derives from what it holds: all of it is written.
      await writeRecipientSteps(trx, accountId, recipient.id, { ...after, status });
      Object.assign(recipient, after, { status });
    }
    const trainingAssigned = settles ? false : await announceIfSettled(trx, batch, recipient, input, member);
    if (changed) await emitSimulationSteps(trx, recipient, before, after);
    return { recorded: true, classification, reason, trainingAssigned, recipient: { ...recipient } };
  };
  return machine.writer ? machine.writer.submit(work, { accountId, recipientId: found.id }) : alone(db, work);
}

/**
 * After a hit that is certain as it arrives: the first click's webhook and the remedial
 * enrollment, unless an earlier hit of the recipient still waits to settle. A human form post or
 * button press proves a person on the page, so the recipient's waiting hits settle with it (the
 * burst rule would keep them human anyway).
 */
async function announceIfSettled(
  trx: Db,
  batch: StepBatch,
  recipient: RecipientWithCampaign,
  input: StepInput,
  member: FigureMembership,
): Promise<boolean> {
  if (!awaitsAnnouncement(recipient)) return false;
  await batch.flushEvents(trx);
  if (input.kind === 'submit' || input.kind === 'interaction') {
    await clearAllSettling(trx, recipient.account_id, recipient.id);
  } else if ((await recipientsStillSettling(trx, recipient.account_id, [recipient.id])).size > 0) {
    return false;
  }
  return announceSettled(trx, batch, recipient, member, input.at);
}

function headerText(value: string | string[] | undefined): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.join(', ');
  return '';
}

export const RECLASSIFY_REASON_MAX = 500;
const RECLASSIFIABLE: ReadonlySet<PhishingEventKind> = new Set([
  'opened',
  'clicked',
  'submitted',
  'interaction',
  'reported',
]);

/**
 * An administrator's reclassification of one event of the account's campaign: who, when, why
 * and the first classification kept; the recipient's first times and status recomputed from its
 * human events, and the figures moved by the difference (a remedial enrollment already made
 * stays: the training is not taken back).
 */
export async function reclassifyPhishingEvent(
  db: Db,
  props: {
    accountId: number;
    campaignId: number;
    eventId: number;
    classification: PhishingClassification;
    reason: string;
    adminUserId: number;
    now?: number;
  },
) {
  const now = props.now ?? Date.now();
  return db.transaction().execute(async (trx) => {
    const event = await eventOfCampaign(trx, props.accountId, props.campaignId, props.eventId);
    if (!event) throw new AppError('phishing_event_not_found');
    if (!RECLASSIFIABLE.has(event.kind)) throw new AppError('phishing_event_not_reclassifiable');
    const recipient = await recipientForUpdate(trx, props.accountId, event.recipient_id);
    if (!recipient) throw new AppError('phishing_event_not_found');
    const batch = new StepBatch();
    await reclassifyEvent(trx, props.accountId, event.id, {
      classification: props.classification,
      by: props.adminUserId,
      at: now,
      reason: props.reason,
    });
    const member = membershipOf(recipient);
    const extra: FigureDeltas =
      event.classification === props.classification
        ? {}
        : { automated_events: props.classification === 'automated' ? 1 : -1 };
    const before = timesOf(recipient);
    const after = timesFromEvents(
      recipient.sent_at,
      await eventsOfRecipient(trx, props.accountId, recipient.id),
    );
    applyStepChanges(batch.figures, recipient.campaign_id, member, before, after, extra);
    const changed: Partial<RecipientSteps> = {};
    for (const step of STEPS) if (after[step] !== before[step]) changed[step] = after[step];
    const status = statusOf(after, recipient.status);
    if (status !== recipient.status) changed.status = status;
    await updateRecipientSteps(trx, props.accountId, recipient.id, changed);
    Object.assign(recipient, after, { status });
    // An administrator's word is final, but a hit of the recipient still settling is waited for.
    if (
      awaitsAnnouncement(recipient) &&
      (await recipientsStillSettling(trx, props.accountId, [recipient.id])).size === 0
    ) {
      await announceSettled(trx, batch, recipient, member, now);
    }
    await batch.finish(trx);
    const updated = await eventOfCampaign(trx, props.accountId, props.campaignId, props.eventId);
    if (!updated) throw new AppError('phishing_event_not_found');
    return updated;
  });
}
