import type { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { makeAccount, makeEmployee } from '../../../../test/helpers/factories.js';
import { employeeSearchText } from '../../../core/search-text.js';
import { exportEmployees } from './employees.export.service.js';
import { importEmployees } from './employees.import.service.js';
import { searchEmployees } from './employees.service.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

async function everyone(accountId: number) {
  return (await searchEmployees(t.app.db, accountId, { sort: 'created_at' }, { limit: 200, offset: 0 }))
    .items;
}

const row = (first_name: unknown, last_name: unknown, email: unknown) => ({ first_name, last_name, email });

describe('importEmployees', () => {
  async function scenario() {
    const { id: accountId } = await makeAccount(t.app);
    const existing = await makeEmployee(t.app, accountId, { email: 'Kept@Example.com' });
    const rows = [
      row('Ann', 'Lee', 'ann@example.com'),
      row('Kept', 'Again', 'kept@EXAMPLE.com'),
      row('', 'Lee', 'not-an-address'),
      row('Ann', 'Twice', ' ANN@example.com '),
      row('Bo', 'Chen', 'bo@example.com'),
      row(7, undefined, 'bad@example.com'),
      row('Kept', 'Thrice', 'KEPT@example.com'),
    ];
    return { accountId, existing, rows };
  }

  it('with dry_run reports what would happen and changes nothing', async () => {
    const { accountId, existing, rows } = await scenario();
    const outcome = await importEmployees(t.app.db, accountId, rows, { dryRun: true });
    expect(outcome).toEqual({
      created: 0,
      results: [
        { status: 'would_create' },
        { status: 'exists', id: existing.id },
        {
          status: 'invalid',
          errors: { first_name: ['must not be empty'], email: ['must be a valid email address'] },
        },
        { status: 'duplicate' },
        { status: 'would_create' },
        { status: 'invalid', errors: { first_name: ['must be a string'], last_name: ['is required'] } },
        { status: 'duplicate' },
      ],
    });
    expect((await everyone(accountId)).map((e) => e.id)).toEqual([existing.id]);
  });

  it('creates the new rows in one go and reports each row in order', async () => {
    const { accountId, existing, rows } = await scenario();
    const outcome = await importEmployees(t.app.db, accountId, rows, { dryRun: false });
    const all = await everyone(accountId);
    expect(all.map((e) => [e.first_name, e.last_name, e.email])).toEqual([
      [existing.first_name, existing.last_name, 'Kept@Example.com'],
      ['Ann', 'Lee', 'ann@example.com'],
      ['Bo', 'Chen', 'bo@example.com'],
    ]);
    expect(outcome.created).toBe(2);
    expect(outcome.results.map((r) => r.status)).toEqual([
      'created',
      'exists',
      'invalid',
      'duplicate',
      'created',
      'invalid',
      'duplicate',
    ]);
    expect(outcome.results[0]!.id).toBe(all[1]!.id);
    expect(outcome.results[4]!.id).toBe(all[2]!.id);
    // The same file again: everything valid is there already.
    const again = await importEmployees(t.app.db, accountId, rows, { dryRun: false });
    expect(again.created).toBe(0);
    expect(again.results.map((r) => r.id ?? r.status)).toEqual([
      all[1]!.id,
      existing.id,
      'invalid',
      'duplicate',
      all[2]!.id,
      'invalid',
      'duplicate',
    ]);
  });

  it('creates each address once when two imports of it run at the same time', async () => {
    const { id: accountId } = await makeAccount(t.app);
    const rows = Array.from({ length: 50 }, (_, i) => row('Same', `Person ${i}`, `same${i}@example.com`));
    const [a, b] = await Promise.all([
      importEmployees(t.app.db, accountId, rows, { dryRun: false }),
      importEmployees(t.app.db, accountId, rows, { dryRun: false }),
    ]);
    expect(a!.created + b!.created).toBe(50);
    const all = await everyone(accountId);
    expect(all).toHaveLength(50);
    rows.forEach((_, i) => {
      const statuses = [a!.results[i]!.status, b!.results[i]!.status].sort();
      expect(statuses).toEqual(['created', 'exists']);
      expect(a!.results[i]!.id).toBe(all[i]!.id);
      expect(b!.results[i]!.id).toBe(all[i]!.id);
    });
  });

  it('reports an address created by someone else during the import as exists', async () => {
    const { id: accountId } = await makeAccount(t.app);
    const rows = [row('Ann', 'Lee', 'ann@example.com'), row('Bo', 'Chen', 'bo@example.com')];
    let outcome: ReturnType<typeof importEmployees> | undefined;
    // A create of Bo still open while the import looks its rows up and inserts them.
    await t.app.db.transaction().execute(async (trx) => {
      const now = Date.now();
      const values = { first_name: 'Bo', last_name: 'First', created_at: now, updated_at: now };
      await trx
        .insertInto('employees')
        .values({
          ...values,
          account_id: accountId,
          email: 'BO@example.com',
          email_normalized: 'bo@example.com',
          search_text: employeeSearchText({ ...values, email: 'BO@example.com' }),
        })
        .execute();
      outcome = importEmployees(t.app.db, accountId, rows, { dryRun: false });
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    const result = await outcome;
    const all = await everyone(accountId);
    expect(result).toEqual({
      created: 1,
      results: [
        { status: 'created', id: all.find((e) => e.first_name === 'Ann')!.id },
        { status: 'exists', id: all.find((e) => e.last_name === 'First')!.id },
      ],
    });
    expect(all).toHaveLength(2);
  });

  it('accepts 1000 rows and refuses more', async () => {
    const { id: accountId } = await makeAccount(t.app);
    const rows = Array.from({ length: 1001 }, (_, i) => row('Many', `Person ${i}`, `many${i}@example.com`));
    await expect(importEmployees(t.app.db, accountId, rows, { dryRun: true })).rejects.toMatchObject({
      status: 400,
      details: { rows: ['must have at most 1000 entries'] },
    });
    const outcome = await importEmployees(t.app.db, accountId, rows.slice(0, 1000), { dryRun: false });
    expect(outcome.created).toBe(1000);
  });
});

async function text(stream: Readable): Promise<string> {
  let out = '';
  for await (const chunk of stream) out += String(chunk);
  return out;
}

describe('exportEmployees', () => {
  it('writes every employee of the account in id order, with a header and ISO times', async () => {
    const { id: accountId } = await makeAccount(t.app);
    const { id: otherId } = await makeAccount(t.app);
    await makeEmployee(t.app, otherId);
    const made = [];
    for (let i = 0; i < 7; i++) made.push(await makeEmployee(t.app, accountId));
    // Batches of 3: the keyset must carry on exactly where each batch ended.
    const csv = await text(exportEmployees(t.app.db, accountId, 3));
    expect(csv.startsWith('\uFEFF')).toBe(true); // UTF-8's byte-order mark, for Excel
    const records: string[][] = parse(csv, { bom: true });
    expect(records[0]).toEqual(['id', 'first_name', 'last_name', 'email', 'created_at']);
    expect(records.slice(1)).toEqual(
      made.map((e) => [
        String(e.id),
        e.first_name,
        e.last_name,
        e.email,
        new Date(e.created_at).toISOString(),
      ]),
    );
  });

  it('defuses formulas and round-trips commas, quotes, line breaks and Unicode', async () => {
    const { id: accountId } = await makeAccount(t.app);
    await makeEmployee(t.app, accountId, {
      first_name: '=HYPERLINK("x")',
      last_name: '+1',
      email: 'a@example.com',
    });
    await makeEmployee(t.app, accountId, {
      first_name: '-2',
      last_name: '@SUM(A1)',
      email: '=b@example.com',
    });
    await makeEmployee(t.app, accountId, {
      first_name: 'Smith, John',
      last_name: 'Zoë 日本 😀',
      email: 'c@example.com',
    });
    // Older data may hold what today's rules refuse: the CSV must still be read back intact.
    const now = Date.now();
    await t.app.db
      .insertInto('employees')
      .values({
        account_id: accountId,
        first_name: 'Line\nbreak "quoted"',
        last_name: '\tTabbed',
        email: 'd@example.com',
        email_normalized: 'd@example.com',
        search_text: employeeSearchText({
          first_name: 'Line\nbreak "quoted"',
          last_name: '\tTabbed',
          email: 'd@example.com',
        }),
        created_at: now,
        updated_at: now,
      })
      .execute();
    const records: string[][] = parse(await text(exportEmployees(t.app.db, accountId)), { from_line: 2 });
    expect(records.map((r) => r.slice(1, 4))).toEqual([
      [`'=HYPERLINK("x")`, "'+1", 'a@example.com'],
      ["'-2", "'@SUM(A1)", "'=b@example.com"],
      ['Smith, John', 'Zoë 日本 😀', 'c@example.com'],
      ['Line\nbreak "quoted"', "'\tTabbed", 'd@example.com'],
    ]);
  });

  it('writes only the header for an account without employees', async () => {
    const { id: accountId } = await makeAccount(t.app);
    expect(await text(exportEmployees(t.app.db, accountId))).toBe(
      '\uFEFFid,first_name,last_name,email,created_at\n',
    );
  });
});
