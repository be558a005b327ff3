import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { makeAccount } from '../../../test/helpers/factories.js';
import { diffFields, hashAuditRow, insertAndRecord, recordAudit, withAuditScope } from './audit.js';
import { GENESIS_HASH } from './audit.repository.js';

// The audit log's writer: one chain per account, each row hashed over the one before; the actor,
// address and request come from the scope the request (or the CLI) opened.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const rowsOf = (accountId: number) =>
  t.app.db.selectFrom('audit_log').selectAll().where('account_id', '=', accountId).orderBy('seq').execute();

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
    const insert = (name: string) =>
      t.app.db
        .insertInto('employees')
        .values({
          account_id: account.id,
          first_name: name,
          last_name: 'Lovelace',
          email: `${name}@example.com`,
          email_normalized: `${name.toLowerCase()}@example.com`,
          search_text: name,
          created_at: 1,
          updated_at: 1,
        })
        .returning(['id', 'first_name as name'])
        .compile();
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
});
