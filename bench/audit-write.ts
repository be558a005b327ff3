import { parseArgs } from 'node:util';
import { diffFields, insertAndRecord, settleAuditLog } from '../src/core/audit/audit.js';
import { type Dialect, openDatabase } from '../src/core/db/database.js';
import { migrateToLatest } from '../src/core/db/migrate.js';
import { normalizeEmail } from '../src/core/fields.js';
import { employeeSearchText } from '../src/core/search-text.js';
import { createAccount } from '../src/modules/access/accounts/accounts.service.js';
import {
  employeeInsert,
  insertEmployee,
  withDefaults,
} from '../src/modules/directory/employees/employees.repository.js';
import { cpuMsOfCommand } from './processes.js';
import { median } from './replace.js';
import { createBenchDatabase, DEFAULT_POSTGRES_URL } from './seed.js';

/**
 * `npm run bench:audit -- [--db sqlite|postgres] [--rounds 10] [--creates 3000]`: what the audit
 * row of an employee create costs, in this process, without HTTP: rounds of creates (ten in
 * flight) as a plain insert (`insert`) and with its audit row (`recorded`, what
 * `POST /customer/employees/` does when no webhook wants the event), in turns, on one database.
 * Each round's CPU includes moving the journal into the chain (done at the round's end, and shown
 * apart as `of which moving`). On PostgreSQL the database's own CPU is shown too. The HTTP bench
 * (`compare.ts --only create`) gives the ratio the issue bounds; this one says where the audit
 * row's microseconds go, with far less noise.
 */

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    rounds: { type: 'string', default: '10' },
    creates: { type: 'string', default: '3000' },
  },
});
const dialect = args.db as Dialect;
const rounds = Number(args.rounds);
const creates = Number(args.creates);
const IN_FLIGHT = 10;

const bench = await createBenchDatabase(dialect, process.env.BENCH_DATABASE_URL || DEFAULT_POSTGRES_URL);
const database = openDatabase(bench.url);
try {
  const db = database.db;
  await migrateToLatest(db);
  const accountId = (await createAccount(db, { name: 'Audit bench' })).id;
  let n = 0;
  const values = () => {
    n += 1;
    const person = { first_name: `First${n}`, last_name: `Last${n}`, email: `person${n}@example.com` };
    const now = Date.now();
    return {
      ...person,
      email_normalized: normalizeEmail(person.email),
      search_text: employeeSearchText(person),
      created_at: now,
      updated_at: now,
    };
  };
  // The record employees.service.ts writes for a create.
  const recorded = () => {
    const row = values();
    const e = withDefaults(row);
    return insertAndRecord(db, employeeInsert(db, accountId, row), {
      accountId,
      action: 'employee.created',
      object: { type: 'employee', label: e.email },
      changes: diffFields(null, {
        first_name: e.first_name,
        last_name: e.last_name,
        email: e.email,
        external_id: e.external_id,
        active: e.active,
      }),
    });
  };
  const variants = { insert: () => insertEmployee(db, accountId, values()), recorded };
  type Variant = keyof typeof variants;
  const figures = { insert: [] as number[][], recorded: [] as number[][] };
  const cpuUs = () => {
    const u = process.cpuUsage();
    return u.user + u.system;
  };
  const databaseUs = () => (dialect === 'postgres' ? cpuMsOfCommand('postgres') * 1000 : 0);

  const round = async (variant: Variant) => {
    const create = variants[variant];
    const [cpu0, db0] = [cpuUs(), databaseUs()];
    let left = creates;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (left-- > 0) await create();
      }),
    );
    const cpuMove = cpuUs();
    await settleAuditLog(db, accountId);
    const [cpu1, db1] = [cpuUs(), databaseUs()];
    figures[variant].push([(cpu1 - cpu0) / creates, (cpu1 - cpuMove) / creates, (db1 - db0) / creates]);
  };
  const order: Variant[] = ['insert', 'recorded'];
  for (const variant of order) await round(variant); // warm-up
  figures.insert = [];
  figures.recorded = [];
  for (let i = 0; i < rounds; i++) {
    for (const variant of i % 2 ? [...order].reverse() : order) await round(variant);
  }
  const m = (variant: Variant, column: number) => median(figures[variant].map((f) => f[column] as number));
  const [a, b] = [m('insert', 0), m('recorded', 0)];
  console.log(
    `${dialect}, ${rounds} rounds of ${creates} creates each, ${IN_FLIGHT} in flight: CPU µs a create`,
  );
  console.log('| | insert | recorded | recorded − insert | recorded / insert |');
  console.log('|---|---:|---:|---:|---:|');
  console.log(
    `| this process | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(b - a).toFixed(1)} | ${(b / a).toFixed(2)} |`,
  );
  console.log(`| of which moving the journal | | ${m('recorded', 1).toFixed(1)} | | |`);
  if (dialect === 'postgres') {
    const [da, dbb] = [m('insert', 2), m('recorded', 2)];
    console.log(
      `| PostgreSQL | ${da.toFixed(1)} | ${dbb.toFixed(1)} | ${(dbb - da).toFixed(1)} | ${(dbb / da).toFixed(2)} |`,
    );
  }
} finally {
  await database.close();
  await bench.drop();
}
