import { CompiledQuery } from 'kysely';
import { type Db, dialectOf } from '../../../core/db/database.js';
import type { PhishingClassification, PhishingEventKind } from '../../../core/db/schema.js';

/**
 * SQL of a recipient's events: append-only rows (only a reclassification changes one, keeping
 * the classification before it, who, when and why). Account first, filtered by it.
 */

export const USER_AGENT_MAX = 512;

export interface NewEvent {
  campaignId: number;
  recipientId: number;
  kind: PhishingEventKind;
  at: number;
  clientAddress: string | null;
  userAgent: string | null;
  classification: PhishingClassification;
  reason: string;
  /** A submission's field names (never the values). */
  fieldNames?: string[];
  /** When a person's open or click settles (tracking.bursts.model.ts); absent: settled as recorded. */
  settlesAt?: number;
}

export async function insertEvent(trx: Db, accountId: number, event: NewEvent): Promise<number> {
  const row = await trx
    .insertInto('phishing_events')
    .values({
      account_id: accountId,
      campaign_id: event.campaignId,
      recipient_id: event.recipientId,
      kind: event.kind,
      occurred_at: event.at,
      client_address: event.clientAddress?.slice(0, 100) ?? null,
      user_agent: event.userAgent === null ? null : event.userAgent.slice(0, USER_AGENT_MAX),
      classification: event.classification,
      reason: event.reason,
      field_names: event.fieldNames ? JSON.stringify(event.fieldNames) : null,
      settles_at: event.settlesAt ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

const INSERT_COLUMNS = [
  'account_id',
  'campaign_id',
  'recipient_id',
  'kind',
  'occurred_at',
  'client_address',
  'user_agent',
  'classification',
  'reason',
  'field_names',
  'settles_at',
] as const;
/** Rows per statement (11 parameters each: under both databases' limits). */
const INSERT_ROWS = 500;
const insertSql = new Map<string, string>();

/** Each event of its account, in one multi-row insert (in order, so ids follow the list). */
export async function insertEvents(
  trx: Db,
  events: readonly { accountId: number; event: NewEvent }[],
): Promise<void> {
  const dialect = dialectOf(trx);
  for (let i = 0; i < events.length; i += INSERT_ROWS) {
    const slice = events.slice(i, i + INSERT_ROWS);
    const id = `${dialect}:${slice.length}`;
    let text = insertSql.get(id);
    if (text === undefined) {
      let n = 0;
      const row = () =>
        `(${INSERT_COLUMNS.map(() => (dialect === 'postgres' ? `$${++n}` : '?')).join(', ')})`;
      text = `insert into phishing_events (${INSERT_COLUMNS.join(', ')}) values ${slice.map(row).join(', ')}`;
      insertSql.set(id, text);
    }
    const values: unknown[] = [];
    for (const { accountId, event } of slice)
      values.push(
        accountId,
        event.campaignId,
        event.recipientId,
        event.kind,
        event.at,
        event.clientAddress?.slice(0, 100) ?? null,
        event.userAgent === null ? null : event.userAgent.slice(0, USER_AGENT_MAX),
        event.classification,
        event.reason,
        event.fieldNames ? JSON.stringify(event.fieldNames) : null,
        event.settlesAt ?? null,
      );
    await trx.executeQuery(CompiledQuery.raw(text, values));
  }
}

const EVENT_COLUMNS = [
  'id',
  'campaign_id',
  'recipient_id',
  'kind',
  'occurred_at',
  'client_address',
  'user_agent',
  'classification',
  'reason',
  'field_names',
  'original_classification',
  'reclassified_by',
  'reclassified_at',
  'reclassified_reason',
] as const;

/** The account's recipient's events, oldest first. */
export function eventsOfRecipient(db: Db, accountId: number, recipientId: number) {
  return db
    .selectFrom('phishing_events')
    .select(EVENT_COLUMNS)
    .where('account_id', '=', accountId)
    .where('recipient_id', '=', recipientId)
    .orderBy('occurred_at')
    .orderBy('id')
    .execute();
}

export type EventRow = Awaited<ReturnType<typeof eventsOfRecipient>>[number];

/** One event of the account's campaign. */
export function eventOfCampaign(db: Db, accountId: number, campaignId: number, eventId: number) {
  return db
    .selectFrom('phishing_events')
    .select(EVENT_COLUMNS)
    .where('account_id', '=', accountId)
    .where('campaign_id', '=', campaignId)
    .where('id', '=', eventId)
    .executeTakeFirst();
}

/** Makes an earlier click human (a later interaction proved a person); the reason says why. */
export async function promoteEvent(
  trx: Db,
  accountId: number,
  eventId: number,
  reason: string,
): Promise<void> {
  await trx
    .updateTable('phishing_events')
    .set((eb) => ({
      original_classification: eb.fn.coalesce('original_classification', 'classification'),
      classification: 'human' as const,
      reason,
    }))
    .where('account_id', '=', accountId)
    .where('id', '=', eventId)
    .execute();
}

/** An administrator's reclassification, the first classification kept. */
export async function reclassifyEvent(
  trx: Db,
  accountId: number,
  eventId: number,
  change: { classification: PhishingClassification; by: number; at: number; reason: string },
): Promise<void> {
  await trx
    .updateTable('phishing_events')
    .set((eb) => ({
      original_classification: eb.fn.coalesce('original_classification', 'classification'),
      classification: change.classification,
      reclassified_by: change.by,
      reclassified_at: change.at,
      reclassified_reason: change.reason,
    }))
    .where('account_id', '=', accountId)
    .where('id', '=', eventId)
    .execute();
}

// Cross-account by design: the names of the administrators who reclassified events the caller already read within its account.
export async function adminNamesOfAnyAccount(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('admin_users')
    .select(['id', 'name'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [Number(r.id), r.name]));
}

/** The event of a simulation's delivery outcome (`sent` or `delivery_failed`). */
export async function insertDeliveryEvent(
  trx: Db,
  accountId: number,
  campaignId: number,
  recipientId: number,
  outcome: 'sent' | 'failed',
  at: number,
): Promise<void> {
  await trx
    .insertInto('phishing_events')
    .values({
      account_id: accountId,
      campaign_id: campaignId,
      recipient_id: recipientId,
      kind: outcome === 'sent' ? 'sent' : 'delivery_failed',
      occurred_at: at,
      classification: 'human',
      reason: outcome === 'sent' ? 'smtp_accepted' : 'delivery_failed',
    })
    .execute();
}
