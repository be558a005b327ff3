import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { parseGrants } from '../src/core/auth/permissions.js';
import { type Db, type Dialect, dialectOf, openDatabase } from '../src/core/db/database.js';
import { migrateToLatest } from '../src/core/db/migrate.js';
import { createAccount } from '../src/modules/access/accounts/accounts.service.js';
import { createAdmin } from '../src/modules/access/admins/admins.service.js';
import { createKey } from '../src/modules/access/keys/keys.service.js';
import { createGroup } from '../src/modules/directory/groups/groups.service.js';
import { delayBucket, HOUR_MS } from '../src/modules/phishing/simulation/simulation.figures.repository.js';
import { employeeRow } from './employees.js';
import { gitRevision, ROOT, startProcess, TMP } from './processes.js';
import { writeSection } from './report.js';
import { createBenchDatabase, DEFAULT_POSTGRES_URL } from './seed.js';

/**
 * The phishing results page's API at 100,000 recipients (issue 11: p50 ≤ 50 ms):
 *
 *   npm run build && node --import tsx bench/phishing-results.ts [--db sqlite|postgres|both] [--runs N] [--write]
 *
 * For each database: a throwaway database with one account of 100,000 employees in four groups,
 * a running phishing campaign with a recipient each (statuses spread as a real campaign's, with
 * consistent figures, delay histograms and hourly activity, written in bulk as a launch and the
 * tracking would leave them), and another account's campaign of 20,000 beside it; `analyze`.
 * Then the built server (`dist/server.js`) and one signed-in administrator (and an API key), one
 * request at a time: a few unmeasured requests, then `--runs` timed ones (sending to last byte).
 * Prints the query plans of the recipients page and a Markdown table; --write puts it in
 * bench/RESULTS.md (section `phishing-results`).
 */

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'both' },
    write: { type: 'boolean', default: false },
    runs: { type: 'string', default: '50' },
    warmup: { type: 'string', default: '5' },
    recipients: { type: 'string', default: '100000' },
    other: { type: 'string', default: '20000' },
  },
});

const postgresUrl = process.env.BENCH_DATABASE_URL || DEFAULT_POSTGRES_URL;
const dialects: Dialect[] = args.db === 'both' ? ['sqlite', 'postgres'] : [args.db as Dialect];
const RUNS = Number(args.runs);
const WARMUP = Number(args.warmup);
const SIZE = Number(args.recipients);
const OTHER = Number(args.other);
const PASSWORD = 'benchmark password 1234';
const LABEL: Record<Dialect, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
const say = (m: string) => console.error(`[bench:phishing-results] ${m}`);

const TEMPLATES = ['builtin:invoice-overdue', 'builtin:parcel-held', 'builtin:password-expiry'];
const BATCH = 1000;
const MINUTE = 60_000;

// Multi-row inserts name every column (SQLite does not fill a missing one with its default).
const ZERO_FIGURES = Object.fromEntries(
  [
    'recipients',
    'delivered',
    'failed',
    'opened',
    'clicked',
    'submitted',
    'reported',
    'phished',
    'training_assigned',
  ]
    .concat(['raw_opens', 'raw_clicks', 'raw_submits', 'automated_events'])
    .map((k) => [k, 0]),
);

type Status = 'scheduled' | 'sent' | 'opened' | 'clicked' | 'submitted' | 'failed';

/** A deterministic spread: 2 % scheduled, 1 % failed, of the rest 45 % only delivered, 30 % opened, 15 % clicked, 5 % submitted; 20 % report. */
function statusOf(i: number): { status: Status; reported: boolean } {
  const r = (i * 7919) % 100;
  const reported = (i * 104729) % 5 === 0;
  if (r < 2) return { status: 'scheduled', reported: false };
  if (r < 3) return { status: 'failed', reported: false };
  if (r < 48) return { status: 'sent', reported };
  if (r < 78) return { status: 'opened', reported };
  if (r < 93) return { status: 'clicked', reported };
  return { status: 'submitted', reported };
}

/** Seeds one account's campaign of `size` recipients in bulk; returns its ids. */
async function seedCampaign(db: Db, accountId: number, size: number, domain: string) {
  const now = Date.now();
  const launchedAt = Math.floor((now - 3 * 86_400_000) / HOUR_MS) * HOUR_MS;
  const groups: number[] = [];
  for (const name of ['Finance', 'Sales', 'Engineering', 'Support'])
    groups.push((await createGroup(db, accountId, { name: `${name} ${domain}` })).id);
  const campaign = await db
    .insertInto('phishing_campaigns')
    .values({
      account_id: accountId,
      name: `Benchmark simulation ${domain}`,
      status: 'running',
      window_start_at: launchedAt,
      window_end_at: launchedAt + 5 * 86_400_000,
      launched_at: launchedAt,
      created_at: launchedAt,
      updated_at: launchedAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const campaignId = Number(campaign.id);
  await db
    .insertInto('phishing_campaign_groups')
    .values(groups.map((group_id) => ({ campaign_id: campaignId, group_id })))
    .execute();
  await db
    .insertInto('phishing_campaign_templates')
    .values(
      TEMPLATES.map((template_key, position) => ({
        campaign_id: campaignId,
        template_key,
        position,
        snapshot: JSON.stringify({ name: template_key.slice(8).replace(/-/g, ' ') }),
      })),
    )
    .execute();

  type Fig = Record<string, number>;
  const figures = new Map<string, Fig>();
  const delays = new Map<string, number>();
  const activity = new Map<number, Fig>();
  const fig = (k: string) => {
    const f = figures.get(k) ?? {};
    figures.set(k, f);
    return f;
  };
  const add = (f: Fig, k: string) => {
    f[k] = (f[k] ?? 0) + 1;
  };
  const act = (at: number, step: string) => {
    const hour = Math.floor(at / HOUR_MS) * HOUR_MS;
    const a = activity.get(hour) ?? {};
    activity.set(hour, a);
    add(a, step);
  };
  let employeeIds: number[] = [];
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < size; start += BATCH) {
      const people = [];
      for (let i = start; i < Math.min(size, start + BATCH); i++) {
        const first = ['Ann', 'Bo', 'Cy', 'Dee', 'Émile', 'Zoë'][i % 6] as string;
        const last = `Person${i}`;
        const email = `p${i}@${domain}`;
        people.push(employeeRow(accountId, { first_name: first, last_name: last, email }, now));
      }
      employeeIds = (await trx.insertInto('employees').values(people).returning('id').execute()).map((r) =>
        Number(r.id),
      );
      const rows = employeeIds.map((employeeId, j) => {
        const i = start + j;
        const { status, reported } = statusOf(i);
        const group = groups[i % groups.length] as number;
        const template = TEMPLATES[i % TEMPLATES.length] as string;
        const planned = launchedAt + Math.floor((i / size) * 2 * 86_400_000);
        const rank = { scheduled: 0, failed: 0, sent: 1, opened: 2, clicked: 3, submitted: 4 }[status];
        const sent = rank >= 1 ? planned : null;
        const opened = rank >= 2 ? planned + (5 + (i % 50)) * MINUTE : null;
        const clicked = rank >= 3 ? planned + (6 + (i % 90)) * MINUTE : null;
        const submitted = rank >= 4 ? planned + (8 + (i % 90)) * MINUTE : null;
        const reportedAt = reported && sent !== null ? planned + (10 + (i % 300)) * MINUTE : null;
        const dims = ['all:', `group:${group}`, `template:${template}`];
        for (const d of dims) {
          const f = fig(d);
          add(f, 'recipients');
          if (sent !== null) add(f, 'delivered');
          if (status === 'failed') add(f, 'failed');
          if (opened !== null) add(f, 'opened');
          if (clicked !== null) {
            add(f, 'clicked');
            add(f, 'phished');
          }
          if (submitted !== null) add(f, 'submitted');
          if (reportedAt !== null) add(f, 'reported');
          if (sent !== null && clicked !== null) {
            const k = `${d}|click|${delayBucket((clicked - sent) / 1000)}`;
            delays.set(k, (delays.get(k) ?? 0) + 1);
          }
          if (sent !== null && reportedAt !== null) {
            const k = `${d}|report|${delayBucket((reportedAt - sent) / 1000)}`;
            delays.set(k, (delays.get(k) ?? 0) + 1);
          }
        }
        if (sent !== null) act(sent, 'delivered');
        if (opened !== null) act(opened, 'opened');
        if (clicked !== null) act(clicked, 'clicked');
        if (submitted !== null) act(submitted, 'submitted');
        if (reportedAt !== null) act(reportedAt, 'reported');
        return {
          account_id: accountId,
          campaign_id: campaignId,
          employee_id: employeeId,
          token: randomBytes(24).toString('base64url'),
          template_key: template,
          group_ids: `[${group}]`,
          planned_at: planned,
          status,
          sent_at: sent,
          opened_at: opened,
          clicked_at: clicked,
          submitted_at: submitted,
          reported_at: reportedAt,
          failed_at: status === 'failed' ? planned : null,
          training_assigned_at: clicked !== null ? clicked + MINUTE : null,
        };
      });
      // Two statements of half a batch each stay under SQLite's 32,766 parameters.
      for (let k = 0; k < rows.length; k += 500)
        await trx
          .insertInto('phishing_recipients')
          .values(rows.slice(k, k + 500))
          .execute();
      const members = employeeIds.map((employee_id, j) => ({
        group_id: groups[(start + j) % groups.length] as number,
        employee_id,
      }));
      await trx.insertInto('group_members').values(members).execute();
    }
    for (const g of groups) {
      const n = await trx
        .selectFrom('group_members')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('group_id', '=', g)
        .executeTakeFirstOrThrow();
      await trx
        .updateTable('groups')
        .set({ employee_count: Number(n.n) })
        .where('id', '=', g)
        .execute();
    }
    await trx
      .insertInto('phishing_figures')
      .values(
        [...figures].map(([k, f]) => {
          const at = k.indexOf(':');
          return {
            campaign_id: campaignId,
            dimension: k.slice(0, at) as 'all' | 'group' | 'template',
            dimension_key: k.slice(at + 1),
            ...ZERO_FIGURES,
            ...f,
          };
        }),
      )
      .execute();
    const delayRows = [...delays].map(([k, people]) => {
      const [d, step, bucket] = k.split('|') as [string, 'click' | 'report', string];
      const at = d.indexOf(':');
      return {
        campaign_id: campaignId,
        dimension: d.slice(0, at) as 'all' | 'group' | 'template',
        dimension_key: d.slice(at + 1),
        step,
        bucket: Number(bucket),
        people,
      };
    });
    for (let k = 0; k < delayRows.length; k += 500)
      await trx
        .insertInto('phishing_figure_delays')
        .values(delayRows.slice(k, k + 500))
        .execute();
    const activityRows = [...activity].map(([hour, a]) => ({
      campaign_id: campaignId,
      hour,
      ...{ delivered: 0, opened: 0, clicked: 0, submitted: 0, reported: 0 },
      ...a,
    }));
    for (let k = 0; k < activityRows.length; k += 500)
      await trx
        .insertInto('phishing_activity')
        .values(activityRows.slice(k, k + 500))
        .execute();
  });
  return { campaignId, groups };
}

interface Seeded {
  accountId: number;
  campaignId: number;
  groupId: number;
  key: string;
  adminEmail: string;
}

async function seed(url: string): Promise<Seeded> {
  const database = openDatabase(url);
  try {
    const db = database.db;
    await migrateToLatest(db);
    const big = await createAccount(db, { name: 'Big account' });
    const other = await createAccount(db, { name: 'Other account' });
    const started = performance.now();
    const mine = await seedCampaign(db, big.id, SIZE, 'big.example.com');
    await seedCampaign(db, other.id, OTHER, 'other.example.com');
    say(`seeded ${SIZE + OTHER} recipients in ${Math.round(performance.now() - started)} ms`);
    const adminEmail = 'admin@big.example.com';
    await createAdmin(db, {
      email: adminEmail,
      password: PASSWORD,
      role: 'account_admin',
      accountId: big.id,
    });
    const key = await createKey(db, {
      accountId: big.id,
      name: 'bench',
      permissions: parseGrants(['campaigns:r']),
      rateLimit: 1_000_000,
      expiresAt: null,
    });
    await sql`analyze`.execute(db);
    await explain(db, big.id, mine.campaignId);
    return {
      accountId: big.id,
      campaignId: mine.campaignId,
      groupId: mine.groups[1] as number,
      key: key.key,
      adminEmail,
    };
  } finally {
    await database.close();
  }
}

/** Prints the plans of the recipients page's queries: they must read an index range, not the table. */
async function explain(db: Db, accountId: number, campaignId: number) {
  const postgres = dialectOf(db) === 'postgres';
  const prefix = postgres ? sql`explain` : sql`explain query plan`;
  const campaign = sql`(select id from phishing_campaigns where id = ${campaignId} and account_id = ${accountId})`;
  const queries = {
    'page 1': sql`select id from phishing_recipients where campaign_id = ${campaign} order by employee_id limit 25 offset 0`,
    'status page': sql`select id from phishing_recipients where campaign_id = ${campaign} and status = 'clicked' order by employee_id limit 25 offset 0`,
    'deep page': sql`select id from phishing_recipients where campaign_id = ${campaign} order by employee_id limit 25 offset 99975`,
    count: sql`select count(*) from phishing_recipients where campaign_id = ${campaign}`,
  };
  for (const [name, q] of Object.entries(queries)) {
    const plan = await sql<Record<string, unknown>>`${prefix} ${q}`.execute(db);
    say(`plan of ${name}: ${plan.rows.map((r) => (postgres ? r['QUERY PLAN'] : r.detail)).join(' | ')}`);
  }
}

class AdminClient {
  private cookies = new Map<string, string>();
  private csrf = '';
  constructor(private readonly baseUrl: string) {}
  private keep(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';', 1)[0] as string;
      const eq = pair.indexOf('=');
      this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }
  async send(method: 'GET' | 'POST', path: string, body?: string, extra: Record<string, string> = {}) {
    const headers: Record<string, string> = {
      cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      ...extra,
    };
    if (method !== 'GET') headers['x-csrf-token'] = this.csrf;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const start = performance.now();
    const res = await fetch(`${this.baseUrl}${path}`, { method, headers, ...(body ? { body } : {}) });
    const text = await res.text();
    const ms = performance.now() - start;
    this.keep(res);
    return { status: res.status, text, ms };
  }
  async signIn(email: string, password: string) {
    const start = await this.send('GET', '/admin/api/session');
    this.csrf = JSON.parse(start.text).csrf_token;
    const res = await this.send('POST', '/admin/api/session', JSON.stringify({ email, password }));
    if (res.status !== 200) throw new Error(`sign-in: ${res.status} ${res.text}`);
    this.csrf = JSON.parse(res.text).csrf_token;
  }
}

const pct = (values: number[], p: number) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number;
};

interface CaseResult {
  name: string;
  p50: number;
  p95: number;
  bytes: number;
}

async function benchDialect(dialect: Dialect): Promise<CaseResult[]> {
  const database = await createBenchDatabase(dialect, postgresUrl);
  try {
    say(`${LABEL[dialect]}: seeding`);
    const seeded = await seed(database.url);
    const server = await startProcess({
      args: ['dist/server.js'],
      env: { NODE_ENV: 'production', DATABASE_URL: database.url, LOG_LEVEL: 'warn' },
      readyPath: '/readyz',
      logFile: resolve(TMP, `phishing-results-${dialect}.log`),
    });
    try {
      const client = new AdminClient(server.baseUrl);
      await client.signIn(seeded.adminEmail, PASSWORD);
      const base = `/admin/api/accounts/${seeded.accountId}/phishing/campaigns/${seeded.campaignId}/results`;
      const deepPage = Math.floor(SIZE / 25);
      // One person, by name (person4711 at the default size; smaller runs search one they have).
      const searched = `person${Math.min(4711, SIZE - 1)}`;
      const cases: {
        name: string;
        path: string;
        headers?: Record<string, string>;
        // biome-ignore lint/suspicious/noExplicitAny: each case reads its own answer's fields
        check: (body: any) => boolean;
      }[] = [
        {
          name: 'summary (figures, groups, templates, activity)',
          path: base,
          check: (b) => b.all.recipients === SIZE,
        },
        {
          name: 'recipients, page 1 (25)',
          path: `${base}/recipients`,
          check: (b) => b.count === SIZE && b.results.length === 25,
        },
        {
          name: 'recipients, status=clicked, page 1',
          path: `${base}/recipients?status=clicked`,
          check: (b) => b.count > 0 && b.results.length === 25,
        },
        {
          name: 'recipients, group and status, page 2',
          path: `${base}/recipients?group_id=${seeded.groupId}&status=opened&page=2`,
          check: (b) => b.results.length === 25,
        },
        {
          name: `recipients, search "${searched}"`,
          path: `${base}/recipients?q=${searched}`,
          check: (b) => b.count >= 1,
        },
        {
          name: `recipients, deep page (${deepPage})`,
          path: `${base}/recipients?page=${deepPage}`,
          check: (b) => b.results.length === 25,
        },
        {
          name: 'Customer API results, page 1 (100)',
          path: `/api/api_gateway/customer/campaigns/phishing/${seeded.campaignId}/results/`,
          headers: { apikey: seeded.key },
          check: (b) => b.count === SIZE && b.results.length === 100,
        },
        {
          name: 'Customer API campaign (detail with figures)',
          path: `/api/api_gateway/customer/campaigns/phishing/${seeded.campaignId}/`,
          headers: { apikey: seeded.key },
          check: (b) => b.recipients === SIZE,
        },
      ];
      const results: CaseResult[] = [];
      for (const c of cases) {
        const times: number[] = [];
        let bytes = 0;
        for (let i = 0; i < WARMUP + RUNS; i++) {
          const res = await client.send('GET', c.path, undefined, c.headers);
          if (res.status !== 200 || !c.check(JSON.parse(res.text)))
            throw new Error(`${c.name}: ${res.status} ${res.text.slice(0, 300)}`);
          if (i >= WARMUP) times.push(res.ms);
          bytes = res.text.length;
        }
        const r = { name: c.name, p50: pct(times, 50), p95: pct(times, 95), bytes };
        say(`${LABEL[dialect]}: ${r.name}: p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms`);
        results.push(r);
      }
      // The CSV export: every row, streamed.
      const start = performance.now();
      const csv = await client.send('GET', `${base}/recipients.csv`);
      const lines = csv.text.split('\n').filter(Boolean).length;
      if (lines !== SIZE + 1) throw new Error(`CSV: ${lines} lines`);
      results.push({
        name: `CSV export (${SIZE.toLocaleString('en')} rows, once)`,
        p50: performance.now() - start,
        p95: Number.NaN,
        bytes: csv.text.length,
      });
      return results;
    } finally {
      await server.stop();
    }
  } finally {
    await database.drop();
  }
}

const all = new Map<Dialect, CaseResult[]>();
for (const d of dialects) all.set(d, await benchDialect(d));

const names = [...(all.values().next().value ?? [])].map((r) => r.name);
const header = `| request | ${dialects.map((d) => `${LABEL[d]} p50 / p95 (ms)`).join(' | ')} |`;
const rule = `|---|${dialects.map(() => '---').join('|')}|`;
const lines = names.map((name) => {
  const cells = dialects.map((d) => {
    const r = all.get(d)?.find((x) => x.name === name);
    if (!r) return '';
    return Number.isNaN(r.p95) ? `${r.p50.toFixed(0)} (total)` : `${r.p50.toFixed(1)} / ${r.p95.toFixed(1)}`;
  });
  return `| ${name} | ${cells.join(' | ')} |`;
});
const markdown = `## Phishing results at ${SIZE.toLocaleString('en')} recipients

\`npm run bench:phishing-results\` (${gitRevision()}): one account's running campaign of ${SIZE.toLocaleString('en')} recipients in four groups and three templates, another account's of ${OTHER.toLocaleString('en')} beside it; the built server, one request at a time, ${RUNS} timed runs after ${WARMUP} unmeasured, sending to last byte. Target: p50 ≤ 50 ms.

${header}
${rule}
${lines.join('\n')}
`;
console.log(markdown);
if (args.write) writeSection(resolve(ROOT, 'bench/RESULTS.md'), 'phishing-results', markdown);
