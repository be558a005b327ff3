import { randomInt } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type autocannon from 'autocannon';
import { sql } from 'kysely';
import { type Db, type Dialect, openDatabase } from '../src/core/db/database.js';
import { migrateToLatest } from '../src/core/db/migrate.js';
import { insertFigureRows } from '../src/modules/phishing/simulation/simulation.figures.repository.js';
import { newSimulationToken } from '../src/modules/phishing/simulation/simulation.links.model.js';
import { builtInPhishingTemplates } from '../src/modules/phishing/templates/templates.library.service.js';
import { insertEmployees } from './employees.js';
import { type LoadResult, runLoad } from './load.js';
import { type BenchServer, gitRevision, ROOT, startProcess, TMP } from './processes.js';
import { writeSection } from './report.js';
import { createBenchDatabase, DEFAULT_POSTGRES_URL } from './seed.js';

/**
 * The phishing tracking routes under load (issue 11: "the tracking image and click routes under
 * load, target ≥ 50 % of the bare-Fastify baseline's requests per second, measured in the same
 * run"):
 *
 *   npm run bench:phishing-tracking [-- --db sqlite|postgres|both --people N --duration S --write]
 *     [--only open,click,landing,unknown,floor] [--cpu-prof]
 *
 * For each database: a running campaign of N recipients, delivered ten minutes ago. Every
 * request picks a random recipient and comes from a random address (X-Forwarded-For, with
 * TRUST_PROXY=loopback, in 198.18.0.0/15, the benchmarking range), as a mail's thousands of readers
 * would: so each hit is a person's, recorded with its event, the recipient's step and the
 * figures in one transaction. Rows: the image, the click of a teach-on-click campaign (the
 * teachable page) and of a teach-on-submit one (the landing page, sanitised per person), each
 * against the bare-Fastify baseline measured before and after.
 */

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'both' },
    people: { type: 'string', default: '20000' },
    connections: { type: 'string', default: '10' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    write: { type: 'boolean', default: false },
    'cpu-prof': { type: 'boolean', default: false },
    /** Some of the rows only: `open`, `click`, `landing`, `unknown`, `floor` (comma-separated). */
    only: { type: 'string', default: 'open,click,landing,unknown,floor' },
  },
});

const PEOPLE = Number(args.people);
const load = {
  connections: Number(args.connections),
  duration: Number(args.duration),
  warmup: Number(args.warmup),
};
const postgresUrl = process.env.BENCH_DATABASE_URL || DEFAULT_POSTGRES_URL;
const dialects: Dialect[] = args.db === 'both' ? ['sqlite', 'postgres'] : [args.db as Dialect];
const LABEL: Record<Dialect, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
const TARGET = 0.5;
const BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

function say(message: string): void {
  console.error(`[bench:phishing-tracking] ${message}`);
}

/** Two running campaigns of PEOPLE recipients each (teach on click, teach on submit); their tokens. */
async function seed(db: Db): Promise<{ click: string[]; landing: string[] }> {
  const now = Date.now();
  const account = await db
    .insertInto('accounts')
    .values({ name: 'Bench phishing', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const employeeIds = await insertEmployees(db, account.id, PEOPLE, (i) => ({
    first_name: `Person${i}`,
    last_name: 'Bench',
    email: `person${i}@bench.example.com`,
  }));
  const slug = 'password-expiry-today';
  const template = builtInPhishingTemplates().get(slug);
  const key = `builtin:${slug}`;
  const sentAt = now - 600_000;
  const tokens: Record<'click' | 'landing', string[]> = { click: [], landing: [] };
  for (const landing of ['teach_on_click', 'teach_on_submit'] as const) {
    const campaign = await db
      .insertInto('phishing_campaigns')
      .values({
        account_id: account.id,
        name: `Bench ${landing}`,
        status: 'running',
        landing,
        launched_at: now,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('phishing_campaign_templates')
      .values({
        campaign_id: campaign.id,
        template_key: key,
        position: 0,
        snapshot: JSON.stringify(template),
      })
      .execute();
    const list = tokens[landing === 'teach_on_click' ? 'click' : 'landing'];
    for (let start = 0; start < employeeIds.length; start += 2000) {
      const rows = employeeIds.slice(start, start + 2000).map((employeeId) => {
        const token = newSimulationToken();
        list.push(token);
        return {
          account_id: account.id,
          campaign_id: campaign.id,
          employee_id: employeeId,
          token,
          template_key: key,
          group_ids: '[]',
          planned_at: sentAt,
          status: 'sent' as const,
          sent_at: sentAt,
        };
      });
      await db.insertInto('phishing_recipients').values(rows).execute();
    }
    await insertFigureRows(db, campaign.id, [
      { dimension: 'all', key: '', recipients: PEOPLE },
      { dimension: 'template', key, recipients: PEOPLE },
    ]);
  }
  await sql`analyze`.execute(db);
  return tokens;
}

/**
 * Reference rows, not judged: the same image and headers for tokens that are no recipient's.
 * A malformed one is refused before any database work (the runtime's own cost for this answer:
 * routing, headers, request log line, metrics, rate limit); a well-formed unknown one costs one
 * read by token and writes nothing.
 */
const FLOOR_ROW = 'GET /t/<malformed token>.png (reference: no database work)';
const UNKNOWN_ROW = 'GET /t/<unknown token>.png (reference: one read, no write)';
const unknownTokens = Array.from({ length: 1000 }, () => newSimulationToken());
const malformedTokens = unknownTokens.map((t) => `${t.slice(0, -1)}!`);

const address = () => `198.${18 + randomInt(2)}.${randomInt(256)}.${randomInt(1, 255)}`;

/** A request to a random recipient's path, from a random address, as a browser. */
function tracked(path: (token: string) => string, tokens: string[]): autocannon.Request {
  return {
    method: 'GET',
    setupRequest: (request) => ({
      ...request,
      path: path(tokens[randomInt(tokens.length)] as string),
      headers: { ...request.headers, 'user-agent': BROWSER, 'x-forwarded-for': address() },
    }),
  };
}

async function benchDialect(dialect: Dialect): Promise<string> {
  const label = LABEL[dialect];
  const loadAtStart = loadavg()
    .map((n) => n.toFixed(2))
    .join(' / ');
  const database = await createBenchDatabase(dialect, postgresUrl);
  const servers: BenchServer[] = [];
  try {
    say(`${label}: seeding two campaigns of ${PEOPLE} recipients…`);
    const opened = openDatabase(database.url);
    await migrateToLatest(opened.db);
    const tokens = await seed(opened.db);
    await opened.close();

    const hello = await startProcess({
      args: ['bench/hello-server.mjs'],
      env: { NODE_ENV: 'production' },
      readyPath: '/',
      logFile: join(TMP, 'hello.log'),
    });
    servers.push(hello);
    const vigil = await startProcess({
      args: [
        ...(args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${join(TMP, 'prof')}`] : []),
        'dist/server.js',
      ],
      env: { NODE_ENV: 'production', DATABASE_URL: database.url, TRUST_PROXY: 'loopback', WORKERS: 'off' },
      readyPath: '/readyz',
      logFile: join(TMP, `server-phishing-${dialect}.log`),
    });
    servers.push(vigil);

    // Preflight: each route answers what it should.
    const check = async (path: string, status: number, contains: string) => {
      const res = await fetch(`${vigil.baseUrl}${path}`, { headers: { 'user-agent': BROWSER } });
      const body = await res.text();
      if (res.status !== status || !body.includes(contains)) {
        throw new Error(`preflight ${path}: ${res.status} ${body.slice(0, 200)}`);
      }
    };
    await check(`/t/${tokens.click[0]}.png`, 200, 'PNG');
    await check(`/v/${tokens.click[1]}`, 200, 'This was a phishing simulation');
    await check(`/v/${tokens.landing[0]}`, 200, '<form');

    const measure = async (name: string, server: BenchServer, request: autocannon.Request) => {
      say(`${label}: ${name}…`);
      const result = await runLoad(
        { label: name, baseUrl: server.baseUrl, pid: server.pid, expectedStatus: 200, request },
        load,
      );
      say(
        `  ${Math.round(result.reqPerSec)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, bad ${result.bad}`,
      );
      return result;
    };
    const baselineRequest: autocannon.Request = { method: 'GET', path: '/' };
    const baselines = [await measure('bare Fastify (first)', hello, baselineRequest)];
    const only = new Set(args.only.split(','));
    const rows: LoadResult[] = [];
    for (const [row, name, path, list] of [
      ['open', 'GET /t/<token>.png (open)', (t: string) => `/t/${t}.png`, tokens.click],
      ['click', 'GET /v/<token> (click → teachable page)', (t: string) => `/v/${t}`, tokens.click],
      ['landing', 'GET /v/<token> (click → landing page)', (t: string) => `/v/${t}`, tokens.landing],
      ['unknown', UNKNOWN_ROW, (t: string) => `/t/${t}.png`, unknownTokens],
      ['floor', FLOOR_ROW, (t: string) => `/t/${t}.png`, malformedTokens],
    ] as const) {
      if (only.has(row)) rows.push(await measure(name, vigil, tracked(path, list)));
    }
    baselines.push(await measure('bare Fastify (again at the end)', hello, baselineRequest));
    const base = baselines.reduce((s, b) => s + b.reqPerSec, 0) / baselines.length;

    const int = (n: number) => Math.round(n).toLocaleString('en');
    const lines = [
      `### Phishing tracking, ${label}`,
      '',
      `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, commit ${gitRevision()}; ${availableParallelism()} CPUs (${cpus()[0]?.model.trim()}), Node ${process.version}; load average at start ${loadAtStart}.`,
      `Two running campaigns of ${PEOPLE.toLocaleString('en')} recipients; every request a random recipient from a random address (each hit a person's: event, step and figures written). autocannon ${load.connections} connections, ${load.warmup} s warm-up + ${load.duration} s per row; \`dist/server.js\`, NODE_ENV=production, LOG_LEVEL=info.`,
      '',
      '| request | req/s | ratio to baseline | p50 ms | p99 ms | server CPU µs/req | target | met? | bad |',
      '|---|---:|---:|---:|---:|---:|---|---|---:|',
      ...baselines.map(
        (b) =>
          `| ${b.label} | ${int(b.reqPerSec)} | | ${b.p50} | ${b.p99} | ${int(b.cpuMsPerRequest * 1000)} | | | ${b.bad} |`,
      ),
      ...rows.map((r) => {
        const ratio = r.reqPerSec / base;
        const judged = r.label.includes('(open)') || r.label.includes('teachable');
        return `| ${r.label} | ${int(r.reqPerSec)} | ${(ratio * 100).toFixed(0)} % | ${r.p50} | ${r.p99} | ${int(r.cpuMsPerRequest * 1000)} | ${judged ? `≥ ${TARGET * 100} %` : ''} | ${judged ? (ratio >= TARGET && r.bad === 0 ? 'yes' : '**no**') : ''} | ${r.bad} |`;
      }),
    ];
    return lines.join('\n');
  } finally {
    for (const s of servers.reverse()) await s.stop().catch(() => {});
    await database.drop().catch(() => {});
  }
}

mkdirSync(TMP, { recursive: true });
const sections: string[] = [];
for (const dialect of dialects) {
  const section = await benchDialect(dialect);
  console.log(`\n${section}\n`);
  sections.push(section);
  if (args.write) {
    writeSection(resolve(ROOT, 'bench/RESULTS.md'), `phishing-tracking-${dialect}`, section);
    say(`wrote the phishing-tracking-${dialect} section of bench/RESULTS.md`);
  }
}
