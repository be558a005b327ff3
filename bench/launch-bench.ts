import { availableParallelism, cpus, loadavg } from 'node:os';
import { type RawBuilder, sql } from 'kysely';
import { type Db, type Dialect, openDatabase } from '../src/core/db/database.js';
import { migrateToLatest } from '../src/core/db/migrate.js';
import { createAccount } from '../src/modules/access/accounts/accounts.service.js';
import { createGroup } from '../src/modules/directory/groups/groups.service.js';
import { insertEmployees } from './employees.js';
import { gitRevision } from './processes.js';
import { median } from './replace.js';
import { createBenchDatabase } from './seed.js';

/**
 * What the two launch benchmarks (bench/campaign-launch.ts, bench/phishing-launch.ts) share: the
 * account they launch for, the timed runs and the rows of their report.
 */

const LABEL: Record<Dialect, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

/**
 * One account of `employees` people in two overlapping target groups (everyone in "All staff",
 * every other person also in "Office"), so a launch must take each person once; then planner
 * statistics, as after a real import.
 */
async function seedLaunchAccount(
  db: Db,
  name: string,
  employees: number,
): Promise<{ accountId: number; groupIds: number[] }> {
  const account = await createAccount(db, { name });
  const all = await createGroup(db, account.id, { name: 'All staff' });
  const office = await createGroup(db, account.id, { name: 'Office' });
  await db.transaction().execute(async (trx) => {
    const person = (i: number) => ({
      first_name: `First${i}`,
      last_name: `Last${i}`,
      email: `person.${i}@launch.example.com`,
    });
    await insertEmployees(trx, account.id, employees, person, async (ids) => {
      await trx
        .insertInto('group_members')
        .values(ids.map((id) => ({ group_id: all.id, employee_id: id })))
        .execute();
      await trx
        .insertInto('group_members')
        .values(ids.filter((_, i) => i % 2 === 0).map((id) => ({ group_id: office.id, employee_id: id })))
        .execute();
    });
  });
  await sql`analyze`.execute(db);
  return { accountId: account.id, groupIds: [all.id, office.id] };
}

/** How late a 10 ms interval timer runs while `work` goes on: the longest the event loop was held. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ value: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last - 10);
    last = now;
  }, 10);
  try {
    return { value: await work(), stallMs };
  } finally {
    clearInterval(timer);
  }
}

export interface LaunchResult {
  dialect: Dialect;
  launchMs: number[];
  /** The longest a 10 ms timer in this process was late during the launches: the event loop held. */
  longestStallMs: number;
}

/** One kind of launch to measure. */
export interface LaunchBench<T> {
  accountName: string;
  employees: number;
  runs: number;
  postgresUrl: string;
  say: (message: string) => void;
  /** Creates run `run`'s draft campaign for these groups; its id. */
  draft: (db: Db, accountId: number, groupIds: number[], run: number) => Promise<number>;
  /** The launch being timed. */
  launch: (db: Db, accountId: number, campaignId: number) => Promise<T>;
  /** What is wrong with the launch's outcome (as an error message), or null. */
  check: (db: Db, campaignId: number, launched: T) => Promise<string | null>;
  /** Run on PostgreSQL after each launch: the tables it grew, analyzed as autovacuum soon would. */
  analyze: RawBuilder<unknown>;
}

/** A throwaway database of the dialect, seeded, then `runs` launches of a new draft each, timed and checked. */
export async function measureLaunches<T>(dialect: Dialect, bench: LaunchBench<T>): Promise<LaunchResult> {
  const created = await createBenchDatabase(dialect, bench.postgresUrl);
  const database = openDatabase(created.url);
  try {
    const db = database.db;
    await migrateToLatest(db);
    bench.say(`${LABEL[dialect]}: seeding ${bench.employees.toLocaleString('en')} employees`);
    const { accountId, groupIds } = await seedLaunchAccount(db, bench.accountName, bench.employees);
    const launchMs: number[] = [];
    let longestStallMs = 0;
    for (let run = 1; run <= bench.runs; run++) {
      const campaignId = await bench.draft(db, accountId, groupIds, run);
      const start = performance.now();
      const { value: launched, stallMs } = await longestStall(() => bench.launch(db, accountId, campaignId));
      const ms = performance.now() - start;
      longestStallMs = Math.max(longestStallMs, stallMs);
      const wrong = await bench.check(db, campaignId, launched);
      if (wrong) throw new Error(`run ${run}: ${wrong}`);
      bench.say(`${LABEL[dialect]} run ${run}: ${ms.toFixed(0)} ms`);
      launchMs.push(ms);
      if (dialect === 'postgres') await bench.analyze.execute(db);
    }
    return { dialect, launchMs, longestStallMs };
  } finally {
    await database.close();
    await created.drop();
  }
}

/** A result's row: median, fastest, slowest, target, met?, people per second, longest stall. */
export function launchRow(r: LaunchResult, targetMs: number, employees: number): string {
  const sorted = [...r.launchMs].sort((a, b) => a - b);
  const met = median(r.launchMs) <= targetMs ? 'yes' : '**no**';
  return `| ${LABEL[r.dialect]} | ${median(r.launchMs).toFixed(0)} | ${(sorted[0] ?? 0).toFixed(0)} | ${(sorted.at(-1) ?? 0).toFixed(0)} | ≤ ${targetMs.toLocaleString('en')} ms | ${met} | ${Math.round(employees / (median(r.launchMs) / 1000)).toLocaleString('en')} | ${r.longestStallMs.toFixed(0)} |`;
}

/** The line under a section's title: date, revision, machine and load, and the command that made it. */
export function launchRunLine(command: string, file: string): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  return `${new Date().toISOString().slice(0, 10)}, revision ${gitRevision()}, ${availableParallelism()} × ${cpu}, load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}. \`${command}\` (${file}).`;
}
