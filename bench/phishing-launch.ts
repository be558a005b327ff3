import { availableParallelism, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { type Db, type Dialect, openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { normalizeEmail } from '../src/fields.js';
import { createAccount } from '../src/modules/accounts/accounts.service.js';
import { createGroup } from '../src/modules/groups/groups.service.js';
import { createPhishingCampaign } from '../src/modules/phishing/phishing.campaigns.service.js';
import { launchPhishingCampaign } from '../src/modules/phishing/phishing.launch.js';
import { employeeSearchText } from '../src/search-text.js';
import { gitRevision, ROOT } from './processes.js';
import { median } from './replace.js';
import { writeSection } from './report.js';
import { createBenchDatabase, DEFAULT_POSTGRES_URL } from './seed.js';

/**
 * Launching a phishing campaign for 100,000 employees (issue 11: "launching 100,000 recipients,
 * target ≤ 2 s SQLite, ≤ 5 s PostgreSQL"):
 *
 *   npm run bench:phishing-launch [-- --db sqlite|postgres|both] [--runs N] [--write]
 *
 * For each database: a fresh throwaway database with one account of 100,000 employees in two
 * overlapping target groups (everyone in "All staff", every other person also in "Office").
 * Then `--runs` times: a new draft with both groups, a pool of three templates and a two-week
 * window of weekday office hours in Europe/Berlin, launched with the function the admin API's
 * `POST …/phishing/campaigns/:id/launch` calls (one transaction: 100,000 recipients with their
 * tokens, drawn templates and planned moments, the snapshots and figures, 100,000 simulations
 * queued). Every run is checked (recipients and queued counts). With --write it replaces the
 * `phishing-launch` section of bench/RESULTS.md.
 */

const TARGETS_MS: Record<Dialect, number> = { sqlite: 2000, postgres: 5000 };

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
  console.error(`[bench:phishing-launch] ${message}`);
}

async function seed(db: Db): Promise<{ accountId: number; groupIds: number[] }> {
  const account = await createAccount(db, { name: 'Phishing launch benchmark' });
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
      const draft = await createPhishingCampaign(db, accountId, {
        name: `Phishing launch ${run}`,
        group_ids: groupIds,
        template_keys: [
          'builtin:invoice-final-notice',
          'builtin:mfa-deny-sign-in',
          'builtin:parcel-redelivery-fee',
        ],
        window_start_at: new Date(Date.now() + 86_400_000).toISOString(),
        window_end_at: new Date(Date.now() + 15 * 86_400_000).toISOString(),
        weekdays: ['mon', 'tue', 'wed', 'thu', 'fri'],
        hour_start: 9,
        hour_end: 17,
        time_zone: 'Europe/Berlin',
      });
      const start = performance.now();
      const { value: launched, stallMs } = await longestStall(() =>
        launchPhishingCampaign(db, { accountId, campaignId: draft.id, trigger: 'now' }),
      );
      const ms = performance.now() - start;
      longestStallMs = Math.max(longestStallMs, stallMs);
      const queued = await db
        .selectFrom('messages')
        .innerJoin('phishing_recipients as r', 'r.id', 'messages.phishing_recipient_id')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('r.campaign_id', '=', draft.id)
        .executeTakeFirstOrThrow();
      const recipients = launched.figures?.recipients ?? 0;
      if (recipients !== EMPLOYEES || Number(queued.n) !== EMPLOYEES) {
        throw new Error(`run ${run}: ${recipients} recipients, ${queued.n} queued`);
      }
      say(`${LABEL[dialect]} run ${run}: ${ms.toFixed(0)} ms`);
      launchMs.push(ms);
      if (dialect === 'postgres') await sql`analyze phishing_recipients, messages`.execute(db);
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
    const target = TARGETS_MS[r.dialect];
    const met = median(r.launchMs) <= target ? 'yes' : '**no**';
    return `| ${LABEL[r.dialect]} | ${median(r.launchMs).toFixed(0)} | ${(sorted[0] ?? 0).toFixed(0)} | ${(sorted.at(-1) ?? 0).toFixed(0)} | ≤ ${target.toLocaleString('en')} ms | ${met} | ${Math.round(EMPLOYEES / (median(r.launchMs) / 1000)).toLocaleString('en')} | ${r.longestStallMs.toFixed(0)} |`;
  });
  return [
    `## Phishing campaign launch (${EMPLOYEES.toLocaleString('en')} recipients)`,
    '',
    `${new Date().toISOString().slice(0, 10)}, revision ${gitRevision()}, ${availableParallelism()} × ${cpu}, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}. \`npm run bench:phishing-launch\` (bench/phishing-launch.ts).`,
    '',
    `One launch = one transaction: the campaign becomes running, ${EMPLOYEES.toLocaleString('en')} people in two overlapping groups get one recipient row each (token, template drawn from a pool of three, a random moment in two weeks of weekday office hours in Europe/Berlin), the templates are snapshotted, the figures rows made, and one simulation per person is queued, due at its moment. ${RUNS} launches per database, each a new campaign.`,
    '',
    '| database | median ms | fastest | slowest | target | met? | recipients + simulations per second | longest event-loop stall ms |',
    '|---|---:|---:|---:|---|---|---:|---:|',
    ...rows,
  ].join('\n');
}

const results: Result[] = [];
for (const dialect of dialects) results.push(await measure(dialect));
const section = render(results);
console.log(section);
if (args.write) {
  writeSection(join(ROOT, 'bench/RESULTS.md'), 'phishing-launch', section);
  say('wrote bench/RESULTS.md');
}
