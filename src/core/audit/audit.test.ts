import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { dialectUnderTest, openMigrated } from '../../../test/helpers/database.js';
import { makeAccount } from '../../../test/helpers/factories.js';
import type { Db } from '../db/database.js';
import {
  diffFields,
  hashAuditRow,
  insertAndRecord,
  recordAudit,
  settleAuditLog,
  withAuditScope,
} from './audit.js';
import { GENESIS_HASH } from './audit.repository.js';
import { verifyAuditChains } from './audit-chain.js';

// The audit log's writer: one chain per account, each row hashed over the one before; the actor,
// address and request come from the scope the request (or the CLI) opened.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

/** A chain's rows, as a reader of the log sees them (the journal moved first). */
const rowsOf = async (accountId: number) => {
  await settleAuditLog(t.app.db);
  return t.app.db
    .selectFrom('audit_log')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('seq')
    .execute();
};

/** An employee's insert (returning its id and first name), for a write that records it. */
const employeeInsert = (db: Db, accountId: number, name: string, domain = 'example.com') =>
  db
    .insertInto('employees')
    .values({
      account_id: accountId,
      first_name: name,
      last_name: 'Lovelace',
      email: `${name}@${domain}`,
      email_normalized: `${name.toLowerCase()}@${domain}`,
      search_text: name,
      created_at: 1,
      updated_at: 1,
    })
    .returning(['id', 'first_name as name'])
    .compile();

describe('the changed fields of a record', () => {
  it('lists a field when its value differs as JSON, and leaves equal ones out', () => {
    const before = { name: 'Sales', active: true, size: 3, note: null, tags: ['a'], limits: { daily: 5 } };
    const after = { name: 'Sales', active: false, size: 3, note: 'x', tags: ['a'], limits: { daily: 6 } };
    expect(diffFields(before, after)).toEqual({
      active: { from: true, to: false },
      note: { from: null, to: 'x' },
      limits: { from: { daily: 5 }, to: { daily: 6 } },
    });
    // A missing field is null; a string is never the same as a number, true or null.
    expect(
      diffFields({ a: '1', b: 'true', c: 'null', d: undefined }, { a: 1, b: true, c: null, e: null }),
    ).toEqual({
      a: { from: '1', to: 1 },
      b: { from: 'true', to: true },
      c: { from: 'null', to: null },
    });
    // As JSON: NaN is null, and key order counts.
    expect(diffFields({ n: Number.NaN, o: { x: 1, y: 2 } }, { n: null, o: { y: 2, x: 1 } })).toEqual({
      o: { from: { x: 1, y: 2 }, to: { y: 2, x: 1 } },
    });
  });

  it('lists every field of a created or deleted object, a secret only as changed, and only the named fields', () => {
    expect(diffFields(null, { email: 'a@example.com', secret: 's', gone: null })).toEqual({
      email: { from: null, to: 'a@example.com' },
      secret: { from: null, to: 's' },
    });
    expect(diffFields({ email: 'a@example.com', secret: 's' }, undefined, { secrets: ['secret'] })).toEqual({
      email: { from: 'a@example.com', to: null },
      secret: { changed: true },
    });
    expect(diffFields({ a: 1, b: 1 }, { a: 2, b: 2 }, { fields: ['b', 'c'] })).toEqual({
      b: { from: 1, to: 2 },
    });
    expect(diffFields(null, null)).toEqual({});
  });
});

describe('the audit writer', () => {
  it('chains each row to the one before, and names the scope’s actor, address and request', async () => {
    const account = await makeAccount(t.app);
    const actor = { kind: 'admin' as const, id: 7, label: 'ann@example.com' };
    await withAuditScope({ actor, address: '203.0.113.9', requestId: 'req-1' }, async () => {
      await recordAudit(t.app.db, {
        accountId: account.id,
        action: 'group.updated',
        object: { type: 'group', id: 3, label: 'Sales' },
        changes: diffFields({ name: 'Sales', size: 1 }, { name: 'Sales EU', size: 1 }),
      });
      await recordAudit(t.app.db, {
        accountId: account.id,
        action: 'api_key.created',
        object: { type: 'api_key', id: 4 },
        changes: diffFields(null, { name: 'HR', secret_hash: 'abc' }, { secrets: ['secret_hash'] }),
      });
    });
    const rows = await rowsOf(account.id);
    expect(rows.map((r) => [Number(r.seq), r.action, r.actor_label, r.address, r.request_id])).toEqual([
      [1, 'group.updated', 'ann@example.com', '203.0.113.9', 'req-1'],
      [2, 'api_key.created', 'ann@example.com', '203.0.113.9', 'req-1'],
    ]);
    expect(JSON.parse(rows[0]?.changes ?? '')).toEqual({ name: { from: 'Sales', to: 'Sales EU' } });
    expect(JSON.parse(rows[1]?.changes ?? '')).toEqual({
      name: { from: null, to: 'HR' },
      secret_hash: { changed: true },
    });
    expect(rows[0]?.prev_hash).toBe(GENESIS_HASH);
    expect(rows[1]?.prev_hash).toBe(rows[0]?.hash);
    for (const row of rows) {
      const { id: _id, hash, ...rest } = row;
      expect(hashAuditRow(rest)).toBe(hash);
    }
  });

  it('records outside any scope as the service itself, in the service’s chain when no account', async () => {
    const before = (await rowsOf(0)).length;
    await recordAudit(t.app.db, {
      accountId: null,
      action: 'account.created',
      object: { type: 'account', id: 1 },
    });
    const rows = await rowsOf(0);
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toMatchObject({ actor_kind: 'system', actor_label: 'Vigil', address: null });
  });

  it('keeps one unbroken chain when many transactions of one account write at once', async () => {
    const account = await makeAccount(t.app);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.app.db.transaction().execute((trx) =>
          recordAudit(trx, {
            accountId: account.id,
            action: 'employee.created',
            object: { type: 'employee', id: i },
          }),
        ),
      ),
    );
    const rows = await rowsOf(account.id);
    expect(rows.map((r) => Number(r.seq))).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    rows.forEach((row, i) => {
      expect(row.prev_hash).toBe(i === 0 ? GENESIS_HASH : rows[i - 1]?.hash);
    });
  });

  it('is rolled back with the change it records', async () => {
    const account = await makeAccount(t.app);
    await expect(
      t.app.db.transaction().execute(async (trx) => {
        await recordAudit(trx, {
          accountId: account.id,
          action: 'group.deleted',
          object: { type: 'group', id: 1 },
        });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await rowsOf(account.id)).toEqual([]);
  });

  it('records an insert with the row it inserts, in one write, whole or not at all', async () => {
    const account = await makeAccount(t.app);
    const insert = (name: string) => employeeInsert(t.app.db, account.id, name);
    const record = (name: string) => ({
      accountId: account.id,
      action: 'employee.created',
      object: { type: 'employee', label: `${name}@example.com` },
      changes: diffFields(null, { first_name: name }),
    });
    // Concurrent ones (a chain's first row among them) take turns on the chain.
    const made = await withAuditScope(
      { actor: { kind: 'api_key', id: 3, label: 'HR sync' }, address: '198.51.100.4', requestId: 'req-9' },
      () =>
        Promise.all(
          ['A', 'B', 'C', 'D', 'E'].map((name) => insertAndRecord(t.app.db, insert(name), record(name))),
        ),
    );
    expect(made.map((g) => g.name)).toEqual(['A', 'B', 'C', 'D', 'E']);
    // The same name again: the insert fails, and nothing is recorded.
    await expect(insertAndRecord(t.app.db, insert('A'), record('A'))).rejects.toThrow();

    const rows = await rowsOf(account.id);
    expect(rows.map((r) => Number(r.seq))).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(rows.map((r) => r.object_id))).toEqual(new Set(made.map((g) => String(g.id))));
    expect(rows[0]).toMatchObject({ actor_label: 'HR sync', address: '198.51.100.4', request_id: 'req-9' });
    rows.forEach((row, i) => {
      const { id: _id, hash, ...fields } = row;
      expect(row.prev_hash).toBe(i === 0 ? GENESIS_HASH : rows[i - 1]?.hash);
      expect(hashAuditRow(fields)).toBe(hash);
    });
  });

  it('records each insert of a commit that succeeded, and nothing of one that failed', async () => {
    const account = await makeAccount(t.app);
    const created = (name: string) =>
      insertAndRecord(t.app.db, employeeInsert(t.app.db, account.id, name), {
        accountId: account.id,
        action: 'employee.created',
        object: { type: 'employee', label: name },
      });
    await created('A');
    // At once: one commit on SQLite (group commit), the second `A` refused in it.
    const results = await Promise.allSettled(['B', 'A', 'C'].map(created));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    // B and C in the order they committed (PostgreSQL: either).
    const rows = await rowsOf(account.id);
    expect(rows.map((r) => Number(r.seq))).toEqual([1, 2, 3]);
    expect(rows[0]?.object_label).toBe('A');
    expect(rows.map((r) => r.object_label).sort()).toEqual(['A', 'B', 'C']);
    const [report] = await verifyAuditChains(t.app.db, account.id);
    expect(report).toMatchObject({ ok: true, rows: 3 });
  });

  it('commits a recorded insert’s row with it: one a process left unchained is chained by the next', async () => {
    const account = await makeAccount(t.app);
    // Another process on the database, stopped right after its write (before its mover ran).
    const other = await openMigrated(t.databaseUrl);
    const employee = await insertAndRecord(
      other.db,
      employeeInsert(other.db, account.id, 'grace', 'example.net'),
      { accountId: account.id, action: 'employee.created', object: { type: 'employee', label: 'grace' } },
    );
    await other.db.destroy();
    const chained = () =>
      t.app.db
        .selectFrom('audit_log')
        .select(['object_id', 'seq'])
        .where('account_id', '=', account.id)
        .execute();
    // In the journal, committed; not yet in the chain. The journal's row: PostgreSQL's, the
    // account beside the canonical tail; SQLite's, a commit's rows, a line each (`[account,` …).
    const journal = await t.app.db.selectFrom('audit_pending').select(['account_id', 'record']).execute();
    const members = journal.map((j) =>
      j.account_id === null ? JSON.parse(j.record) : [Number(j.account_id), ...JSON.parse(`[${j.record}`)],
    );
    expect(members.map((m) => [m[0], m[9]])).toEqual([[account.id, String(employee.id)]]);
    expect(await chained()).toEqual([]);
    expect(await rowsOf(account.id)).toMatchObject([{ object_id: String(employee.id), seq: 1 }]);
    expect(await chained()).toHaveLength(1);
    const [report] = await verifyAuditChains(t.app.db, account.id);
    expect(report).toMatchObject({ ok: true, rows: 1 });
  });

  it('moves each journaled row once when two processes move one chain at once', async () => {
    const account = await makeAccount(t.app);
    const other = await openMigrated(t.databaseUrl);
    const names = Array.from({ length: 40 }, (_, i) => `p${i}`);
    const made = await Promise.all(
      names.map((name, i) => {
        const db = i % 2 === 0 ? t.app.db : other.db;
        return insertAndRecord(db, employeeInsert(db, account.id, name, 'example.io'), {
          accountId: account.id,
          action: 'employee.created',
          object: { type: 'employee', label: name },
        });
      }),
    );
    await Promise.all([
      settleAuditLog(other.db, account.id),
      settleAuditLog(t.app.db, account.id),
      settleAuditLog(other.db),
      settleAuditLog(t.app.db),
    ]);
    await other.db.destroy();
    const rows = await rowsOf(account.id);
    expect(rows.map((r) => Number(r.seq))).toEqual(names.map((_, i) => i + 1));
    expect(new Set(rows.map((r) => r.object_id))).toEqual(new Set(made.map((e) => String(e.id))));
    const [report] = await verifyAuditChains(t.app.db, account.id);
    expect(report).toMatchObject({ ok: true, rows: 40 });
  });

  it.skipIf(dialectUnderTest !== 'sqlite')(
    'chains a row journaled before the journal held its account (SQLite, migration 0028’s form)',
    async () => {
      const account = await makeAccount(t.app);
      const row = {
        account_id: account.id,
        at: 1_700_000_000_000,
        actor_kind: 'api_key',
        actor_id: '3',
        actor_label: 'HR sync',
        address: '198.51.100.4',
        request_id: 'req-7',
        action: 'employee.created',
        object_type: 'employee',
        object_label: 'old@example.com',
        changes: '{"first_name":{"from":null,"to":"Old"}}',
      };
      await t.app.db
        .insertInto('audit_pending')
        .values({ account_id: null, record: JSON.stringify(row), object_id: '41' })
        .execute();
      const rows = await rowsOf(account.id);
      expect(rows).toMatchObject([{ ...row, object_id: '41', seq: 1, prev_hash: GENESIS_HASH }]);
      const [report] = await verifyAuditChains(t.app.db, account.id);
      expect(report).toMatchObject({ ok: true, rows: 1 });
    },
  );

  it.skipIf(dialectUnderTest !== 'sqlite')(
    'chains a row journaled alone with its account (SQLite, the form of the builds before commit groups)',
    async () => {
      const account = await makeAccount(t.app);
      const tail = `1700000000000,"api_key","3","HR sync",null,"req-8","employee.created","employee","42","new@example.com",null]`;
      await t.app.db.insertInto('audit_pending').values({ account_id: account.id, record: tail }).execute();
      const rows = await rowsOf(account.id);
      expect(rows).toMatchObject([
        { object_id: '42', object_label: 'new@example.com', address: null, seq: 1, prev_hash: GENESIS_HASH },
      ]);
      const [report] = await verifyAuditChains(t.app.db, account.id);
      expect(report).toMatchObject({ ok: true, rows: 1 });
    },
  );

  it.skipIf(dialectUnderTest !== 'sqlite')(
    'moves commits’ rows of more audit rows than one move takes, in order, over several moves (SQLite)',
    async () => {
      const account = await makeAccount(t.app);
      // Three commits of 600 creates each: 1,800 audit rows, a line each, in three journal rows.
      const line = (n: number) =>
        `[${account.id},${1_700_000_000_000 + n},"api_key","3","HR sync",null,null,"employee.created","employee","${n}","p${n}@example.com",null]`;
      for (let commit = 0; commit < 3; commit++) {
        const lines = Array.from({ length: 600 }, (_, i) => line(commit * 600 + i + 1));
        await t.app.db
          .insertInto('audit_pending')
          .values({ record: lines.join('\n') })
          .execute();
      }
      const rows = await rowsOf(account.id);
      expect(rows).toHaveLength(1800);
      expect(rows.map((r) => r.object_id)).toEqual(Array.from({ length: 1800 }, (_, i) => String(i + 1)));
      expect(await t.app.db.selectFrom('audit_pending').selectAll().execute()).toEqual([]);
      const [report] = await verifyAuditChains(t.app.db, account.id);
      expect(report).toMatchObject({ ok: true, rows: 1800 });
    },
  );

  it('keeps the order of the commits when a recorded insert and other changes alternate', async () => {
    const account = await makeAccount(t.app);
    const insert = (name: string) => employeeInsert(t.app.db, account.id, name, 'example.org');
    const created = (name: string) =>
      insertAndRecord(t.app.db, insert(name), {
        accountId: account.id,
        action: 'employee.created',
        object: { type: 'employee', label: name },
      });
    const changed = (name: string) =>
      recordAudit(t.app.db, {
        accountId: account.id,
        action: 'group.updated',
        object: { type: 'group', label: name },
      });
    for (const name of ['a1', 'a2']) await created(name);
    await changed('g1');
    await created('a3');
    await changed('g2');
    await created('a4');
    // Not yet read: on SQLite the last create's row may still wait in the journal, written with it.
    const rows = await rowsOf(account.id);
    expect(rows.map((r) => r.object_label)).toEqual(['a1', 'a2', 'g1', 'a3', 'g2', 'a4']);
    expect(rows.map((r) => Number(r.seq))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await t.app.db.selectFrom('audit_pending').selectAll().execute()).toEqual([]);
    const [report] = await verifyAuditChains(t.app.db, account.id);
    expect(report).toMatchObject({ ok: true, rows: 6 });
  });
});
