import { availableParallelism, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { type Db, type Dialect, openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { normalizeEmail } from '../src/fields.js';
import { createAccount } from '../src/modules/accounts/accounts.service.js';
import { launchCampaign } from '../src/modules/campaigns/campaigns.launch.js';
import { createCampaign } from '../src/modules/campaigns/campaigns.service.js';
import { createGroup } from '../src/modules/groups/groups.service.js';
import { employeeSearchText } from '../src/search-text.js';
import { gitRevision, ROOT } from './processes.js';
import { median } from './replace.js';
import { TARGETS, writeSection } from './report.js';
import { createBenchDatabase, DEFAULT_POSTGRES_URL } from './seed.js';

/**
 * Launching a training campaign for 100,000 employees (issue 4: "answers promptly: enrollments
 * in bulk, mail queued"):
 *
 *   npm run bench:launch [-- --db sqlite|postgres|both] [--runs N] [--write]
 *
 * For each database: a fresh throwaway database with one account of 100,000 employees in two
 * overlapping target groups (everyone in "All staff", every other person also in "Office"), so
 * the launch must enroll each person once. Then `--runs` times: a new draft campaign with two
 * courses and both groups, launched with the same function the admin API's `POST …/launch`
 * calls (one transaction: status, 100,000 enrollments, 100,000 queued invitations). Every run
 * is checked (enrolled and queued counts). Prints a Markdown section; with --write it replaces
 * the `launch` section of bench/RESULTS.md. The databases are dropped at the end.
 */

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'both' },
    write: { type: 'boolean', default: false },
    runs: { type: 'string', default: '5' },
    employees: { type: 'string', default: '100000' },
  },
});

const postgresUrl = process.env.BENCH_DATABASE_URL || DEFAULT_POSTGRES_URL;
const dialects: Dialect[] = args.db === 'both' ? ['sqlite', 'postgres'] : [args.db as Dialect];
const RUNS = Number(args.runs);
const EMPLOYEES = Number(args.employees);
const LABEL: Record<Dialect, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
const BATCH = 2000;

function say(message: string): void {
  console.error(`[bench:launch] ${message}`);
}

async function seed(db: Db): Promise<{ accountId: number; groupIds: number[] }> {
  const account = await createAccount(db, { name: 'Launch benchmark' });
  const all = await createGroup(db, account.id, { name: 'All staff' });
  const office = await createGroup(db, account.id, { name: 'Office' });
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < EMPLOYEES; start += BATCH) {
      const rows = [];
      for (let i = start; i < Math.min(EMPLOYEES, start + BATCH); i++) {
        const email = `person.${i}@launch.example.com`;
        rows.push({
          account_id: account.id,
          first_name: `First${i}`,
          last_name: `Last${i}`,
          email,
          email_normalized: normalizeEmail(email),
          search_text: employeeSearchText({ first_name: `First${i}`, last_name: `Last${i}`, email }),
          created_at: now,
          updated_at: now,
        });
      }
      const ids = await trx.insertInto('employees').values(rows).returning('id').execute();
      await trx
        .insertInto('group_members')
        .values(ids.map((r) => ({ group_id: all.id, employee_id: r.id })))
        .execute();
      await trx
        .insertInto('group_members')
        .values(ids.filter((_, i) => i % 2 === 0).map((r) => ({ group_id: office.id, employee_id: r.id })))
        .execute();
    }
  });
  await sql`analyze`.execute(db);
  return { accountId: account.id, groupIds: [all.id, office.id] };
}

interface Result {
  dialect: Dialect;
  launchMs: number[];
  /** The longest a 10 ms timer in this process was late during the launches: the event loop held. */
  longestStallMs: number;
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

async function measure(dialect: Dialect): Promise<Result> {
  const bench = await createBenchDatabase(dialect, postgresUrl);
  const database = openDatabase(bench.url);
  try {
    const db = database.db;
    await migrateToLatest(db);
    say(`${LABEL[dialect]}: seeding ${EMPLOYEES.toLocaleString('en')} employees`);
    const { accountId, groupIds } = await seed(db);
    const launchMs: number[] = [];
    let longestStallMs = 0;
    for (let run = 1; run <= RUNS; run++) {
      const draft = await createCampaign(db, accountId, {
        name: `Launch ${run}`,
        course_keys: ['phishing', 'passwords-and-mfa'],
        group_ids: groupIds,
        due_date: new Date(Date.now() + 14 * 86_400_000).toISOString(),
      });
      const start = performance.now();
      const { value: launched, stallMs } = await longestStall(() =>
        launchCampaign(db, { accountId, campaignId: draft.id, trigger: 'now' }),
      );
      const ms = performance.now() - start;
      longestStallMs = Math.max(longestStallMs, stallMs);
      const queued = await db
        .selectFrom('messages')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('campaign_id', '=', draft.id)
        .executeTakeFirstOrThrow();
      if (launched.counts.enrolled !== EMPLOYEES || Number(queued.n) !== EMPLOYEES) {
        throw new Error(`run ${run}: ${launched.counts.enrolled} enrolled, ${queued.n} queued`);
      }
      say(`${LABEL[dialect]} run ${run}: ${ms.toFixed(0)} ms`);
      launchMs.push(ms);
      if (dialect === 'postgres') await sql`analyze enrollments, messages`.execute(db);
    }
    return { dialect, launchMs, longestStallMs };
  } finally {
    await database.close();
    await bench.drop();
  }
}

function render(results: Result[]): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const rows = results.map((r) => {
    const sorted = [...r.launchMs].sort((a, b) => a - b);
    const target = TARGETS[r.dialect].launchMs;
    const met = median(r.launchMs) <= target ? 'yes' : '**no**';
    return `| ${LABEL[r.dialect]} | ${median(r.launchMs).toFixed(0)} | ${(sorted[0] ?? 0).toFixed(0)} | ${(sorted.at(-1) ?? 0).toFixed(0)} | ≤ ${target.toLocaleString('en')} ms | ${met} | ${Math.round(EMPLOYEES / (median(r.launchMs) / 1000)).toLocaleString('en')} | ${r.longestStallMs.toFixed(0)} |`;
  });
  return [
    `## Campaign launch (${EMPLOYEES.toLocaleString('en')} employees)`,
    '',
    `${new Date().toISOString().slice(0, 10)}, revision ${gitRevision()}, ${availableParallelism()} × ${cpu}, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}. \`npm run bench:launch\` (bench/campaign-launch.ts).`,
    '',
    `One launch = one transaction: the campaign becomes active, ${EMPLOYEES.toLocaleString('en')} people in two overlapping groups are enrolled once each, and one invitation per person is queued (nothing is sent in the request; the mail workers take it from there). ${RUNS} launches per database, each a new campaign, so the tables grow as they would in use.`,
    '',
    '| database | median ms | fastest | slowest | target | met? | enrollments + invitations per second | longest event-loop stall ms |',
    '|---|---:|---:|---:|---|---|---:|---:|',
    ...rows,
  ].join('\n');
}

const results: Result[] = [];
for (const dialect of dialects) results.push(await measure(dialect));
const section = render(results);
console.log(section);
if (args.write) {
  writeSection(join(ROOT, 'bench/RESULTS.md'), 'launch', section);
  say('wrote bench/RESULTS.md');
}
