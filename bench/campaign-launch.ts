import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import type { Dialect } from '../src/core/db/database.js';
import { launchCampaign } from '../src/modules/training/campaigns/campaigns.launch.commands.js';
import { createCampaign } from '../src/modules/training/campaigns/campaigns.service.js';
import { type LaunchResult, launchRow, launchRunLine, measureLaunches } from './launch-bench.js';
import { ROOT } from './processes.js';
import { TARGETS, writeSection } from './report.js';
import { DEFAULT_POSTGRES_URL } from './seed.js';

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

function say(message: string): void {
  console.error(`[bench:launch] ${message}`);
}

/** Launches of a new draft with two courses and both groups, each checked: everyone enrolled and invited. */
const measure = (dialect: Dialect) =>
  measureLaunches(dialect, {
    accountName: 'Launch benchmark',
    employees: EMPLOYEES,
    runs: RUNS,
    postgresUrl,
    say,
    draft: async (db, accountId, groupIds, run) =>
      (
        await createCampaign(db, accountId, {
          name: `Launch ${run}`,
          course_keys: ['phishing', 'passwords-and-mfa'],
          group_ids: groupIds,
          due_date: new Date(Date.now() + 14 * 86_400_000).toISOString(),
        })
      ).id,
    launch: (db, accountId, campaignId) => launchCampaign(db, { accountId, campaignId, trigger: 'now' }),
    check: async (db, campaignId, launched) => {
      const queued = await db
        .selectFrom('messages')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('campaign_id', '=', campaignId)
        .executeTakeFirstOrThrow();
      return launched.counts.enrolled !== EMPLOYEES || Number(queued.n) !== EMPLOYEES
        ? `${launched.counts.enrolled} enrolled, ${queued.n} queued`
        : null;
    },
    analyze: sql`analyze enrollments, messages`,
  });

function render(results: LaunchResult[]): string {
  const rows = results.map((r) => launchRow(r, TARGETS[r.dialect].launchMs, EMPLOYEES));
  return [
    `## Campaign launch (${EMPLOYEES.toLocaleString('en')} employees)`,
    '',
    launchRunLine('npm run bench:launch', 'bench/campaign-launch.ts'),
    '',
    `One launch = one transaction: the campaign becomes active, ${EMPLOYEES.toLocaleString('en')} people in two overlapping groups are enrolled once each, and one invitation per person is queued (nothing is sent in the request; the mail workers take it from there). ${RUNS} launches per database, each a new campaign, so the tables grow as they would in use.`,
    '',
    '| database | median ms | fastest | slowest | target | met? | enrollments + invitations per second | longest event-loop stall ms |',
    '|---|---:|---:|---:|---|---|---:|---:|',
    ...rows,
  ].join('\n');
}

const results: LaunchResult[] = [];
for (const dialect of dialects) results.push(await measure(dialect));
const section = render(results);
console.log(section);
if (args.write) {
  writeSection(join(ROOT, 'bench/RESULTS.md'), 'launch', section);
  say('wrote bench/RESULTS.md');
}
