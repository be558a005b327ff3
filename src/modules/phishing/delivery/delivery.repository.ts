import { sql } from 'kysely';
import type { Db } from '../../../core/db/database.js';
import type { PhishingTestHitsTable } from '../../../core/db/schema.js';
import { TEST_HITS_MAX } from './delivery.model.js';

/** SQL of the allow-listing sheet and of test sends (phishing_test_sends, phishing_test_hits). */

/** The campaigns that may still send (draft, scheduled, running), by id, with their own sender domain. */
export function campaignsThatMaySend(
  db: Db,
  accountId: number,
): Promise<{ name: string; status: string; sender_domain: string | null }[]> {
  return db
    .selectFrom('phishing_campaigns')
    .select(['name', 'status', 'sender_domain'])
    .where('account_id', '=', accountId)
    .where('status', 'in', ['draft', 'scheduled', 'running'])
    .orderBy('id')
    .limit(500)
    .execute();
}

/** The account's employee with this address (lower-cased), if any. */
export function employeeByAddress(
  db: Db,
  accountId: number,
  normalized: string,
): Promise<{ id: number; email: string; active: number } | undefined> {
  return db
    .selectFrom('employees')
    .select(['id', 'email', 'active'])
    .where('account_id', '=', accountId)
    .where('email_normalized', '=', normalized)
    .executeTakeFirst();
}

/** When the account's test sends of the last hour were made. */
export async function testSendTimesSince(db: Db, accountId: number, since: number): Promise<number[]> {
  const rows = await db
    .selectFrom('phishing_test_sends')
    .select('created_at')
    .where('account_id', '=', accountId)
    .where('created_at', '>', since)
    .execute();
  return rows.map((r) => Number(r.created_at));
}

export interface NewTestSend {
  accountId: number;
  token: string;
  employeeId: number;
  email: string;
  templateKey: string;
  templateName: string;
  snapshot: string;
  adminId: number | null;
  subject: string;
  at: number;
}

/** Queues the test send's message (priority 0: someone is waiting) and records the send; its id. */
export async function insertTestSend(trx: Db, send: NewTestSend): Promise<number> {
  const message = await trx
    .insertInto('messages')
    .values({
      account_id: send.accountId,
      kind: 'simulation_test',
      round: 0,
      status: 'queued',
      attempts: 0,
      priority: 0,
      next_attempt_at: send.at,
      created_at: send.at,
      to_address: send.email,
      subject: send.subject,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const row = await trx
    .insertInto('phishing_test_sends')
    .values({
      account_id: send.accountId,
      token: send.token,
      employee_id: send.employeeId,
      email: send.email,
      template_key: send.templateKey,
      template_name: send.templateName,
      snapshot: send.snapshot,
      admin_id: send.adminId,
      message_id: Number(message.id),
      created_at: send.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export interface TestSendRow {
  id: number;
  email: string;
  employee_id: number | null;
  template_key: string;
  template_name: string;
  status: string;
  hits: number;
  created_at: number;
  delivered_at: number | null;
}

export type TestHitRow = Omit<PhishingTestHitsTable, 'id' | 'account_id'>;

const SEND_COLUMNS = [
  'id',
  'email',
  'employee_id',
  'template_key',
  'template_name',
  'status',
  'hits',
  'created_at',
  'delivered_at',
] as const;

const asSend = (r: TestSendRow): TestSendRow => ({
  ...r,
  id: Number(r.id),
  employee_id: r.employee_id === null ? null : Number(r.employee_id),
  hits: Number(r.hits),
  created_at: Number(r.created_at),
  delivered_at: r.delivered_at === null ? null : Number(r.delivered_at),
});

/** The account's latest test sends, newest first. */
export async function latestTestSends(db: Db, accountId: number, limit: number): Promise<TestSendRow[]> {
  const rows = await db
    .selectFrom('phishing_test_sends')
    .select(SEND_COLUMNS)
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(asSend);
}

/** One test send of the account. */
export async function findTestSend(db: Db, accountId: number, id: number): Promise<TestSendRow | undefined> {
  const row = await db
    .selectFrom('phishing_test_sends')
    .select(SEND_COLUMNS)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && asSend(row);
}

/** The hits of these test sends of the account, in time order. */
export async function hitsOfTestSends(db: Db, accountId: number, ids: number[]): Promise<TestHitRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('phishing_test_hits')
    .select([
      'test_send_id',
      'kind',
      'method',
      'classification',
      'reason',
      'detail',
      'client_address',
      'user_agent',
      'occurred_at',
    ])
    .where('account_id', '=', accountId)
    .where('test_send_id', 'in', ids)
    .orderBy('occurred_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    ...r,
    test_send_id: Number(r.test_send_id),
    occurred_at: Number(r.occurred_at),
  }));
}

/** What the tracking routes need of a test send, by its token (any account's). */
export async function testSendByToken(
  db: Db,
  token: string,
): Promise<{ id: number; account_id: number; created_at: number; delivered_at: number | null } | undefined> {
  const row = await db
    .selectFrom('phishing_test_sends')
    .select(['id', 'account_id', 'created_at', 'delivered_at'])
    .where('token', '=', token)
    .executeTakeFirst();
  return (
    row && {
      id: Number(row.id),
      account_id: Number(row.account_id),
      created_at: Number(row.created_at),
      delivered_at: row.delivered_at === null ? null : Number(row.delivered_at),
    }
  );
}

/** Records one hit unless the send already holds TEST_HITS_MAX; whether it was recorded. */
export async function insertTestHit(
  db: Db,
  send: { id: number; account_id: number },
  hit: Omit<TestHitRow, 'test_send_id'>,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const counted = await trx
      .updateTable('phishing_test_sends')
      .set({ hits: sql`hits + 1` })
      .where('id', '=', send.id)
      .where('hits', '<', TEST_HITS_MAX)
      .executeTakeFirst();
    if (Number(counted.numUpdatedRows) === 0) return false;
    await trx
      .insertInto('phishing_test_hits')
      .values({ account_id: send.account_id, test_send_id: send.id, ...hit })
      .execute();
    return true;
  });
}

/** What these claimed test sends are composed of (any accounts'), by message id. */
export async function testSendMailRows(db: Db, messageIds: number[]) {
  if (messageIds.length === 0) return [];
  const rows = await db
    .selectFrom('phishing_test_sends as t')
    .leftJoin('accounts as a', 'a.id', 't.account_id')
    .leftJoin('employees as p', (j) =>
      j.onRef('p.id', '=', 't.employee_id').onRef('p.account_id', '=', 't.account_id'),
    )
    .leftJoin('phishing_settings as ps', 'ps.account_id', 't.account_id')
    .select([
      't.message_id',
      't.token',
      't.snapshot',
      'p.email',
      'p.first_name',
      'p.last_name',
      'p.active as employee_active',
      sql<string | null>`coalesce(a.display_name, a.name)`.as('account_name'),
      'ps.sender_name as account_sender_name',
      'ps.sender_address as account_sender_address',
      'ps.sender_domain as account_sender_domain',
      'ps.simulation_header',
    ])
    .where('t.message_id', 'in', messageIds)
    .execute();
  return rows.map((r) => ({ ...r, message_id: Number(r.message_id) }));
}

/** The mail worker's outcome of a test send's message. */
export async function recordTestSendOutcome(
  db: Db,
  messageId: number,
  outcome: 'sent' | 'failed',
  at: number,
): Promise<void> {
  await db
    .updateTable('phishing_test_sends')
    .set(outcome === 'sent' ? { status: 'sent', delivered_at: at } : { status: 'failed' })
    .where('message_id', '=', messageId)
    .execute();
}

/** A deleted employee's test sends go, their hits with them (a test send is a diagnosis, not a record). */
export async function deleteTestSendsOfEmployee(
  db: Db,
  accountId: number,
  employeeId: number,
): Promise<void> {
  await db
    .deleteFrom('phishing_test_sends')
    .where('account_id', '=', accountId)
    .where('employee_id', '=', employeeId)
    .execute();
}
