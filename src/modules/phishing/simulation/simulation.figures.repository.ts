import { CompiledQuery, sql } from 'kysely';
import { type Db, dialectOf } from '../../../core/db/database.js';
import type { PhishingDimension } from '../../../core/db/schema.js';

/**
 * SQL of a phishing campaign's figures (migration 0009): kept up to date in the transaction that
 * moves a recipient, so reading them is a few indexed rows at any campaign size. The tables have
 * no account_id: they are reached through their campaign, which the callers have already read
 * within the account (writes) or which the reads check here (`campaignOfAccount`).
 */

/** The counters of a figures row that steps move. */
export type FigureCounter =
  | 'recipients'
  | 'delivered'
  | 'failed'
  | 'opened'
  | 'clicked'
  | 'submitted'
  | 'reported'
  | 'phished'
  | 'reported_after_click'
  | 'missed'
  | 'training_assigned'
  | 'raw_opens'
  | 'raw_clicks'
  | 'raw_submits'
  | 'automated_events';

export type FigureDeltas = Partial<Record<FigureCounter, number>>;

/** The rows of the figures a recipient counts in: the campaign's, each of their groups', their template's. */
export interface FigureMembership {
  group_ids: readonly number[];
  template_key: string;
}

export function dimensionsOf(recipient: FigureMembership): { dimension: PhishingDimension; key: string }[] {
  return [
    { dimension: 'all', key: '' },
    ...recipient.group_ids.map((id) => ({ dimension: 'group' as const, key: String(id) })),
    { dimension: 'template', key: recipient.template_key },
  ];
}

/**
 * Adds `deltas` (positive or negative) to every figures row the recipient counts in, creating
 * the rows that are missing. Runs inside the caller's transaction, beside the recipient's change.
 */
export async function addToFigures(
  trx: Db,
  campaignId: number,
  recipient: FigureMembership,
  deltas: FigureDeltas,
): Promise<void> {
  const entries = Object.entries(deltas).filter(([, v]) => v !== undefined && v !== 0) as [
    FigureCounter,
    number,
  ][];
  if (entries.length === 0) return;
  const values = Object.fromEntries(entries);
  for (const { dimension, key } of dimensionsOf(recipient)) {
    await trx
      .insertInto('phishing_figures')
      .values({ campaign_id: campaignId, dimension, dimension_key: key, ...values })
      .onConflict((oc) =>
        oc
          .columns(['campaign_id', 'dimension', 'dimension_key'])
          .doUpdateSet(
            Object.fromEntries(
              entries.map(([column, delta]) => [
                column,
                sql<number>`phishing_figures.${sql.ref(column)} + ${delta}`,
              ]),
            ),
          ),
      )
      .execute();
  }
}

/** Figures rows at launch: every dimension with its count of recipients, in one statement each slice. */
export async function insertFigureRows(
  trx: Db,
  campaignId: number,
  rows: { dimension: PhishingDimension; key: string; recipients: number }[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    await trx
      .insertInto('phishing_figures')
      .values(
        rows.slice(i, i + 500).map((r) => ({
          campaign_id: campaignId,
          dimension: r.dimension,
          dimension_key: r.key,
          recipients: r.recipients,
        })),
      )
      .onConflict((oc) =>
        oc
          .columns(['campaign_id', 'dimension', 'dimension_key'])
          .doUpdateSet({ recipients: (eb) => eb.ref('excluded.recipients') }),
      )
      .execute();
  }
}

/**
 * The bucket of a delay: logarithmic, each about 5 % wider than the one before, so a median read
 * from the buckets is within 2.5 % of the true one (seconds to minutes to weeks alike).
 */
export function delayBucket(seconds: number): number {
  return Math.floor(Math.log1p(Math.max(0, seconds)) / Math.log(1.05));
}

/** The middle of a bucket, in seconds. */
export function bucketSeconds(bucket: number): number {
  return Math.round((1.05 ** bucket + 1.05 ** (bucket + 1)) / 2 - 1);
}

/** Adds (or with -1 removes) one person's delay to the step's histograms of every row they count in. */
export async function addDelay(
  trx: Db,
  campaignId: number,
  recipient: FigureMembership,
  step: 'click' | 'report',
  seconds: number,
  delta: 1 | -1,
): Promise<void> {
  const bucket = delayBucket(seconds);
  for (const { dimension, key } of dimensionsOf(recipient)) {
    await trx
      .insertInto('phishing_figure_delays')
      .values({ campaign_id: campaignId, dimension, dimension_key: key, step, bucket, people: delta })
      .onConflict((oc) =>
        oc
          .columns(['campaign_id', 'dimension', 'dimension_key', 'step', 'bucket'])
          .doUpdateSet({ people: sql<number>`phishing_figure_delays.people + ${delta}` }),
      )
      .execute();
  }
}

export type ActivityStep = 'delivered' | 'opened' | 'clicked' | 'submitted' | 'reported';

export const HOUR_MS = 3_600_000;

/** Adds (or removes) one person reaching `step` in the hour of `at`. */
export async function addActivity(
  trx: Db,
  campaignId: number,
  at: number,
  step: ActivityStep,
  delta: 1 | -1,
): Promise<void> {
  const hour = Math.floor(at / HOUR_MS) * HOUR_MS;
  await trx
    .insertInto('phishing_activity')
    .values({ campaign_id: campaignId, hour, [step]: delta })
    .onConflict((oc) =>
      oc
        .columns(['campaign_id', 'hour'])
        .doUpdateSet({ [step]: sql<number>`phishing_activity.${sql.ref(step)} + ${delta}` }),
    )
    .execute();
}

/** The campaign's id when it is the account's, for the reads below. */
function campaignOfAccount(db: Db, accountId: number, campaignId: number) {
  return db
    .selectFrom('phishing_campaigns')
    .select('id')
    .where('id', '=', campaignId)
    .where('account_id', '=', accountId);
}

/** Every figures row of the account's campaigns (`all` only, unless `dimensions` says more). */
export async function figuresOfCampaigns(
  db: Db,
  accountId: number,
  campaignIds: readonly number[],
  dimensions: readonly PhishingDimension[] = ['all'],
) {
  if (campaignIds.length === 0) return [];
  return db
    .selectFrom('phishing_figures')
    .selectAll()
    .where('campaign_id', 'in', (eb) =>
      eb
        .selectFrom('phishing_campaigns')
        .select('id')
        .where('account_id', '=', accountId)
        .where('id', 'in', [...campaignIds]),
    )
    .where('dimension', 'in', [...dimensions])
    .execute();
}

/** The delay histograms of one of the account's campaigns. */
export async function delaysOfCampaign(db: Db, accountId: number, campaignId: number) {
  return db
    .selectFrom('phishing_figure_delays')
    .select(['dimension', 'dimension_key', 'step', 'bucket', 'people'])
    .where('campaign_id', '=', (eb) =>
      eb.selectFrom(campaignOfAccount(db, accountId, campaignId).as('c')).select('c.id'),
    )
    .where('people', '>', 0)
    .orderBy('bucket')
    .execute();
}

/** The account's campaign's activity, hour by hour. */
export async function activityOfCampaign(db: Db, accountId: number, campaignId: number) {
  return db
    .selectFrom('phishing_activity')
    .select(['hour', 'delivered', 'opened', 'clicked', 'submitted', 'reported'])
    .where('campaign_id', '=', (eb) =>
      eb.selectFrom(campaignOfAccount(db, accountId, campaignId).as('c')).select('c.id'),
    )
    .orderBy('hour')
    .execute();
}

/** The median of a histogram's people (seconds), or null when it is empty. */
export function medianSeconds(buckets: readonly { bucket: number; people: number }[]): number | null {
  const total = buckets.reduce((sum, b) => sum + b.people, 0);
  if (total <= 0) return null;
  const half = total / 2;
  let seen = 0;
  for (const b of [...buckets].sort((x, y) => x.bucket - y.bucket)) {
    seen += b.people;
    if (seen >= half) return bucketSeconds(b.bucket);
  }
  return null;
}

const FIGURE_COUNTERS: readonly FigureCounter[] = [
  'recipients',
  'delivered',
  'failed',
  'opened',
  'clicked',
  'submitted',
  'reported',
  'phished',
  'reported_after_click',
  'missed',
  'training_assigned',
  'raw_opens',
  'raw_clicks',
  'raw_submits',
  'automated_events',
];
const ACTIVITY_STEPS: readonly ActivityStep[] = ['delivered', 'opened', 'clicked', 'submitted', 'reported'];

/**
 * The figures, activity and delay changes of a batch of steps, added up in memory per row
 * (campaign, dimension, key …) and written at the end of the batch's transaction as one multi-row
 * upsert per table (`applyFigureChanges`): the same sums as `addToFigures`/`addActivity`/`addDelay`
 * one by one, in a few statements whatever the batch's size.
 */
export class FigureChanges {
  readonly figures = new Map<
    string,
    { campaignId: number; dimension: PhishingDimension; key: string; deltas: number[] }
  >();
  readonly activity = new Map<string, { campaignId: number; hour: number; deltas: number[] }>();
  readonly delays = new Map<
    string,
    {
      campaignId: number;
      dimension: PhishingDimension;
      key: string;
      step: 'click' | 'report';
      bucket: number;
      people: number;
    }
  >();

  addToFigures(campaignId: number, recipient: FigureMembership, deltas: FigureDeltas): void {
    const entries = Object.entries(deltas).filter(([, v]) => v !== undefined && v !== 0) as [
      FigureCounter,
      number,
    ][];
    if (entries.length === 0) return;
    for (const { dimension, key } of dimensionsOf(recipient)) {
      const id = `${campaignId}\u0000${dimension}\u0000${key}`;
      let row = this.figures.get(id);
      if (!row) {
        row = { campaignId, dimension, key, deltas: FIGURE_COUNTERS.map(() => 0) };
        this.figures.set(id, row);
      }
      for (const [counter, n] of entries) row.deltas[FIGURE_COUNTERS.indexOf(counter)]! += n;
    }
  }

  addActivity(campaignId: number, at: number, step: ActivityStep, delta: number): void {
    const hour = Math.floor(at / HOUR_MS) * HOUR_MS;
    const id = `${campaignId}\u0000${hour}`;
    let row = this.activity.get(id);
    if (!row) {
      row = { campaignId, hour, deltas: ACTIVITY_STEPS.map(() => 0) };
      this.activity.set(id, row);
    }
    row.deltas[ACTIVITY_STEPS.indexOf(step)]! += delta;
  }

  addDelay(
    campaignId: number,
    recipient: FigureMembership,
    step: 'click' | 'report',
    seconds: number,
    delta: number,
  ): void {
    const bucket = delayBucket(seconds);
    for (const { dimension, key } of dimensionsOf(recipient)) {
      const id = `${campaignId}\u0000${dimension}\u0000${key}\u0000${step}\u0000${bucket}`;
      const row = this.delays.get(id);
      if (row) row.people += delta;
      else this.delays.set(id, { campaignId, dimension, key, step, bucket, people: delta });
    }
  }

  get empty(): boolean {
    return this.figures.size === 0 && this.activity.size === 0 && this.delays.size === 0;
  }
}

/** Rows per multi-row statement (PostgreSQL allows 65,535 parameters, SQLite 32,766). */
const UPSERT_ROWS = 400;

/** `insert … values (…), (…) on conflict (…) do update set c = t.c + excluded.c`, SQL text built once per shape. */
const upsertSql = new Map<string, string>();
function upsertStatement(
  dialect: 'sqlite' | 'postgres',
  table: string,
  keys: readonly string[],
  counters: readonly string[],
  rows: number,
): string {
  const id = `${dialect}:${table}:${rows}`;
  const cached = upsertSql.get(id);
  if (cached) return cached;
  const columns = [...keys, ...counters];
  let n = 0;
  const param = () => (dialect === 'postgres' ? `$${++n}` : '?');
  const values: string[] = [];
  for (let r = 0; r < rows; r++) values.push(`(${columns.map(param).join(', ')})`);
  const text =
    `insert into ${table} (${columns.join(', ')}) values ${values.join(', ')} ` +
    `on conflict (${keys.join(', ')}) do update set ${counters.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(', ')}`;
  if (upsertSql.size > 2000) upsertSql.clear();
  upsertSql.set(id, text);
  return text;
}

async function upsertRows(
  trx: Db,
  table: string,
  keys: readonly string[],
  counters: readonly string[],
  rows: unknown[][],
): Promise<void> {
  const dialect = dialectOf(trx);
  for (let i = 0; i < rows.length; i += UPSERT_ROWS) {
    const slice = rows.slice(i, i + UPSERT_ROWS);
    await trx.executeQuery(
      CompiledQuery.raw(upsertStatement(dialect, table, keys, counters, slice.length), slice.flat()),
    );
  }
}

/**
 * Writes a batch's `FigureChanges` inside the caller's transaction: one upsert per touched row,
 * rows in a stable order (so two processes' batches lock them in the same order on PostgreSQL).
 */
export async function applyFigureChanges(trx: Db, changes: FigureChanges): Promise<void> {
  const byKey = <T>(map: Map<string, T>) =>
    [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const figures = byKey(changes.figures)
    .filter(([, r]) => r.deltas.some((d) => d !== 0))
    .map(([, r]) => [r.campaignId, r.dimension, r.key, ...r.deltas]);
  if (figures.length > 0)
    await upsertRows(
      trx,
      'phishing_figures',
      ['campaign_id', 'dimension', 'dimension_key'],
      FIGURE_COUNTERS,
      figures,
    );
  const activity = byKey(changes.activity)
    .filter(([, r]) => r.deltas.some((d) => d !== 0))
    .map(([, r]) => [r.campaignId, r.hour, ...r.deltas]);
  if (activity.length > 0)
    await upsertRows(trx, 'phishing_activity', ['campaign_id', 'hour'], ACTIVITY_STEPS, activity);
  const delays = byKey(changes.delays)
    .filter(([, r]) => r.people !== 0)
    .map(([, r]) => [r.campaignId, r.dimension, r.key, r.step, r.bucket, r.people]);
  if (delays.length > 0)
    await upsertRows(
      trx,
      'phishing_figure_delays',
      ['campaign_id', 'dimension', 'dimension_key', 'step', 'bucket'],
      ['people'],
      delays,
    );
}
