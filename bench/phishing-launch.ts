import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import type { Dialect } from '../src/core/db/database.js';
import { launchPhishingCampaign } from '../src/modules/phishing/campaigns/campaigns.launch.commands.js';
import { createPhishingCampaign } from '../src/modules/phishing/campaigns/campaigns.service.js';
import { type LaunchResult, launchRow, launchRunLine, measureLaunches } from './launch-bench.js';
import { ROOT } from './processes.js';
import { writeSection } from './report.js';
import { DEFAULT_POSTGRES_URL } from './seed.js';

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

function say(message: string): void {
  console.error(`[bench:phishing-launch] ${message}`);
}

/** Launches of a new draft with both groups and three templates, each checked: everyone a recipient with a simulation queued. */
const measure = (dialect: Dialect) =>
  measureLaunches(dialect, {
    accountName: 'Phishing launch benchmark',
    employees: EMPLOYEES,
    runs: RUNS,
    postgresUrl,
    say,
    draft: async (db, accountId, groupIds, run) =>
      (
        await createPhishingCampaign(db, accountId, {
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
        })
      ).id,
    launch: (db, accountId, campaignId) =>
      launchPhishingCampaign(db, { accountId, campaignId, trigger: 'now' }),
    check: async (db, campaignId, launched) => {
      const queued = await db
        .selectFrom('messages')
        .innerJoin('phishing_recipients as r', 'r.id', 'messages.phishing_recipient_id')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('r.campaign_id', '=', campaignId)
        .executeTakeFirstOrThrow();
      const recipients = launched.figures?.recipients ?? 0;
      return recipients !== EMPLOYEES || Number(queued.n) !== EMPLOYEES
        ? `${recipients} recipients, ${queued.n} queued`
        : null;
    },
    analyze: sql`analyze phishing_recipients, messages`,
  });

function render(results: LaunchResult[]): string {
  const rows = results.map((r) => launchRow(r, TARGETS_MS[r.dialect], EMPLOYEES));
  return [
    `## Phishing campaign launch (${EMPLOYEES.toLocaleString('en')} recipients)`,
    '',
    launchRunLine('npm run bench:phishing-launch', 'bench/phishing-launch.ts'),
    '',
    `One launch = one transaction: the campaign becomes running, ${EMPLOYEES.toLocaleString('en')} people in two overlapping groups get one recipient row each (token, template drawn from a pool of three, a random moment in two weeks of weekday office hours in Europe/Berlin), the templates are snapshotted, the figures rows made, and one simulation per person is queued, due at its moment. ${RUNS} launches per database, each a new campaign.`,
    '',
    '| database | median ms | fastest | slowest | target | met? | recipients + simulations per second | longest event-loop stall ms |',
    '|---|---:|---:|---:|---|---|---:|---:|',
    ...rows,
  ].join('\n');
}

const results: LaunchResult[] = [];
for (const dialect of dialects) results.push(await measure(dialect));
const section = render(results);
console.log(section);
if (args.write) {
  writeSection(join(ROOT, 'bench/RESULTS.md'), 'phishing-launch', section);
  say('wrote bench/RESULTS.md');
}
