import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordAudit } from '../src/core/audit/audit.js';
import { pruneAuditLog } from '../src/core/audit/audit-chain.js';
import { buildTestApp } from './helpers/app.js';
import { vigilOn } from './helpers/cli.js';
import { makeAccount } from './helpers/factories.js';

/**
 * `vigil audit verify` recomputes each chain and names the first row that breaks it: a row
 * changed, deleted (first, middle, last) or put in through SQL each shows, exit code 1. Retention
 * deletes the oldest rows past the account's setting, moves the chain's anchor, and the kept
 * part still verifies; a row deleted after that still shows.
 */

let app: FastifyInstance;
let databaseUrl: string;
beforeAll(async () => {
  ({ app, databaseUrl } = await buildTestApp());
});
const { vigil, vigilJson } = vigilOn(() => databaseUrl);

const DAY = 24 * 60 * 60 * 1000;

/** An account whose chain holds `n` rows (its creation is in the service's chain). */
async function accountWithRows(n: number) {
  const account = await makeAccount(app);
  for (let i = 1; i <= n; i++) {
    await recordAudit(app.db, {
      accountId: account.id,
      action: 'group.updated',
      object: { type: 'group', id: i, label: `Group ${i}` },
      changes: { name: { from: `Old ${i}`, to: `Group ${i}` } },
    });
  }
  return account.id;
}

const rowsOf = (accountId: number) =>
  app.db.selectFrom('audit_log').selectAll().where('account_id', '=', accountId).orderBy('seq').execute();

async function verify(accountId: number) {
  const res = await vigil(['audit', 'verify', '--account', String(accountId), '--json']);
  const printed = JSON.parse(res.stdout);
  return { code: res.code, chain: printed.chains[0], ok: printed.ok };
}

describe('vigil audit verify', () => {
  it('finds every chain whole, and says so for people too', async () => {
    const accountId = await accountWithRows(3);
    const all = await vigilJson(['audit', 'verify']);
    expect(all.ok).toBe(true);
    expect(all.chains.map((c: { accountId: number }) => c.accountId)).toEqual(
      expect.arrayContaining([0, accountId]),
    );
    const human = await vigil(['audit', 'verify', '--account', String(accountId)]);
    expect(human.code).toBe(0);
    expect(human.stdout).toBe(`ok      account ${accountId}: 3 rows, 1–3\n`);
  });

  it('names a changed row (its action, its changes, its actor)', async () => {
    for (const [column, value] of [
      ['action', 'group.created'],
      ['changes', '{"name":{"from":"x","to":"y"}}'],
      ['actor_label', 'someone else'],
    ] as const) {
      const accountId = await accountWithRows(4);
      const [, second] = await rowsOf(accountId);
      await app.db
        .updateTable('audit_log')
        .set({ [column]: value })
        .where('id', '=', Number(second?.id))
        .execute();
      const { code, chain, ok } = await verify(accountId);
      expect(code).toBe(1);
      expect(ok).toBe(false);
      expect(chain.broken).toMatchObject({ id: Number(second?.id), seq: 2, kind: 'changed' });
    }
  });

  it('names a row changed with its hash recomputed: the next row no longer follows it', async () => {
    const accountId = await accountWithRows(4);
    const [, second] = await rowsOf(accountId);
    const { hashAuditRow } = await import('../src/core/audit/audit.js');
    const { id: _id, hash: _hash, ...fields } = second as NonNullable<typeof second>;
    const forged = { ...fields, action: 'group.deleted' };
    await app.db
      .updateTable('audit_log')
      .set({ action: forged.action, hash: hashAuditRow(forged) })
      .where('id', '=', Number(second?.id))
      .execute();
    const { code, chain } = await verify(accountId);
    expect(code).toBe(1);
    expect(chain.broken).toMatchObject({ seq: 3, kind: 'inserted' });
  });

  it('names deleted rows: the first, one in the middle, the last', async () => {
    for (const seq of [1, 3, 5]) {
      const accountId = await accountWithRows(5);
      await app.db
        .deleteFrom('audit_log')
        .where('account_id', '=', accountId)
        .where('seq', '=', seq)
        .execute();
      const { code, chain } = await verify(accountId);
      expect(code, `row ${seq} deleted`).toBe(1);
      // Named at the row after the gap (the chain's end when the last one went).
      expect(chain.broken).toMatchObject({ seq: seq === 5 ? 5 : seq + 1, kind: 'deleted' });
      expect(chain.broken.reason).toMatch(new RegExp(`^row ${seq} is missing`));
    }
  });

  it('names a row put in after the head, and one put in the middle with the seq of a deleted one', async () => {
    const accountId = await accountWithRows(3);
    const [, , third] = await rowsOf(accountId);
    const { id: _id, ...copy } = third as NonNullable<typeof third>;
    await app.db
      .insertInto('audit_log')
      .values({ ...copy, seq: 4 })
      .execute();
    const after = await verify(accountId);
    expect(after.code).toBe(1);
    expect(after.chain.broken).toMatchObject({ seq: 4, kind: 'inserted' });

    const other = await accountWithRows(3);
    const [, second] = await rowsOf(other);
    await app.db.deleteFrom('audit_log').where('id', '=', Number(second?.id)).execute();
    const { id: _x, ...replacement } = second as NonNullable<typeof second>;
    await app.db
      .insertInto('audit_log')
      .values({ ...replacement, actor_label: 'not who did it' })
      .execute();
    const middle = await verify(other);
    expect(middle.code).toBe(1);
    expect(middle.chain.broken).toMatchObject({ seq: 2, kind: 'changed' });
  });

  it('prints the break for people, exit code 1', async () => {
    const accountId = await accountWithRows(2);
    await sql`update audit_log set object_label = 'Renamed' where account_id = ${accountId} and seq = 2`.execute(
      app.db,
    );
    const res = await vigil(['audit', 'verify', '--account', String(accountId)]);
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(
      new RegExp(`^BROKEN  account ${accountId}: 2 rows, 1–2; first break at row 2 \\(id \\d+\\), changed: `),
    );
  });
});

describe('retention', () => {
  async function age(accountId: number, seqUpTo: number, days: number) {
    await app.db
      .updateTable('audit_log')
      .set({ at: Date.now() - days * DAY })
      .where('account_id', '=', accountId)
      .where('seq', '<=', seqUpTo)
      .execute();
  }

  it('deletes rows older than 400 days by default, records it, and the rest still verifies', async () => {
    const accountId = await accountWithRows(6);
    // Ageing changes the rows: re-hash the chain as if they had been written then.
    await age(accountId, 3, 401);
    await rehash(accountId);
    expect((await verify(accountId)).ok).toBe(true);
    await pruneAuditLog(app.db, Date.now());
    const rows = await rowsOf(accountId);
    expect(rows.map((r) => Number(r.seq))).toEqual([4, 5, 6, 7]);
    expect(rows.at(-1)).toMatchObject({ action: 'audit_log.pruned', actor_kind: 'system' });
    expect(JSON.parse(rows.at(-1)?.changes ?? '{}')).toMatchObject({ rows_deleted: { to: 3 } });
    const { code, chain } = await verify(accountId);
    expect(code).toBe(0);
    expect(chain).toMatchObject({ ok: true, anchorSeq: 4, headSeq: 7, rows: 4 });

    // The anchor is kept: the first kept row deleted, or one in the middle, still shows.
    await app.db.deleteFrom('audit_log').where('account_id', '=', accountId).where('seq', '=', 4).execute();
    const broken = (await verify(accountId)).chain.broken;
    expect(broken).toMatchObject({ seq: 5, kind: 'deleted', reason: 'row 4 is missing before row 5' });
  });

  it("keeps the account's own retention, never under 180 days, and nothing newer", async () => {
    const accountId = await accountWithRows(4);
    await app.db
      .insertInto('account_security')
      .values({ account_id: accountId, audit_retention_days: 30, updated_at: Date.now() })
      .execute();
    await age(accountId, 2, 100);
    await rehash(accountId);
    expect(await prunedRows(accountId)).toBe(0); // 100 days < 180: kept
    await age(accountId, 1, 200);
    await rehash(accountId);
    await pruneAuditLog(app.db, Date.now());
    expect((await rowsOf(accountId)).map((r) => Number(r.seq))).toEqual([2, 3, 4, 5]);
    expect((await verify(accountId)).ok).toBe(true);
  });

  async function prunedRows(accountId: number) {
    const before = (await rowsOf(accountId)).length;
    await pruneAuditLog(app.db, Date.now());
    return before - (await rowsOf(accountId)).length;
  }
});

/** Re-hashes an account's chain in order (test set-up only: ages rows as if written long ago). */
async function rehash(accountId: number) {
  const { hashAuditRow } = await import('../src/core/audit/audit.js');
  let prev = '0'.repeat(64);
  for (const row of await rowsOf(accountId)) {
    const { id, hash: _old, ...fields } = row;
    const hash = hashAuditRow({ ...fields, prev_hash: prev });
    await app.db.updateTable('audit_log').set({ prev_hash: prev, hash }).where('id', '=', id).execute();
    prev = hash;
  }
  await app.db.updateTable('audit_heads').set({ hash: prev }).where('account_id', '=', accountId).execute();
}

describe('append-only', () => {
  it('has one statement that deletes audit rows (retention) and none that changes one', () => {
    const sources = readdirSync('src', { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .map((f) => [f, readFileSync(join('src', f), 'utf8')] as const);
    const writes = sources.flatMap(([file, text]) =>
      [...text.matchAll(/(updateTable|deleteFrom)\(\s*'audit_log'|(update|delete from)\s+audit_log\b/gi)].map(
        (m) => `${file}: ${m[0]}`,
      ),
    );
    expect(writes).toEqual(["core/audit/audit.repository.ts: deleteFrom('audit_log'"]);
    const repository = readFileSync('src/core/audit/audit.repository.ts', 'utf8');
    const deleting = repository.slice(
      repository.indexOf("deleteFrom('audit_log'") - 600,
      repository.indexOf("deleteFrom('audit_log'"),
    );
    expect(deleting).toContain('export async function pruneChainBefore(');
  });
});
