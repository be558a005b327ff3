import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { type Db, type Dialect, openDatabase } from '../src/core/db/database.js';
import { migrateToLatest } from '../src/core/db/migrate.js';
import { createAccount } from '../src/modules/access/accounts/accounts.service.js';
import { createAdmin } from '../src/modules/access/admins/admins.service.js';
import { replaceGroupScope } from '../src/modules/access/roles/roles.repository.js';
import { replaceMembership } from '../src/modules/directory/groups/groups.membership.commands.js';
import { createGroup } from '../src/modules/directory/groups/groups.service.js';
import { launchCampaign } from '../src/modules/training/campaigns/campaigns.launch.commands.js';
import { createCampaign } from '../src/modules/training/campaigns/campaigns.service.js';
import { employeeRow } from './employees.js';
import { gitRevision, ROOT, startProcess, TMP } from './processes.js';
import { median } from './replace.js';
import { writeSection } from './report.js';
import { createBenchDatabase, DEFAULT_POSTGRES_URL } from './seed.js';

/**
 * The web interface's lists at 100,000 employees, through the real admin API (issue: "stay fast
 * with 100,000 employees"):
 *
 *   npm run build && node --import tsx bench/admin-lists.ts [--db sqlite|postgres|both] [--runs N] [--write]
 *
 * For each database: a fresh throwaway database with one account of 100,000 employees, another
 * of 20,000 (their rows interleaved in the table, as tenants' are), and a group of 10,000 members
 * (every 10th employee), and a training campaign launched to all 100,000 (enrolled and invited),
 * with a campaign manager limited to the group of all 100,000 (the `scoped:` cases); `analyze`. Then the built server (`dist/server.js`, its own process) and
 * one client signed in as the big account's administrator, sending one request at a time: each
 * case is a few unmeasured requests, then `--runs` timed ones (from sending to the last byte of
 * the answer). Every answer is checked (status, count, rows). Prints a Markdown section; with
 * --write it replaces the `admin` section of bench/RESULTS.md. The databases are dropped at the end.
 */

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'both' },
    write: { type: 'boolean', default: false },
    runs: { type: 'string', default: '20' },
    'export-runs': { type: 'string', default: '20' },
    warmup: { type: 'string', default: '2' },
    employees: { type: 'string', default: '100000' },
    other: { type: 'string', default: '20000' },
    members: { type: 'string', default: '10000' },
    'log-level': { type: 'string', default: 'info' },
    /** Leave the databases for a look (prints their URLs); drop them yourself. */
    keep: { type: 'boolean', default: false },
    /** Only the cases whose label matches this regular expression (the seed is the same). */
    only: { type: 'string' },
  },
});

const postgresUrl = process.env.BENCH_DATABASE_URL || DEFAULT_POSTGRES_URL;
const dialects: Dialect[] = args.db === 'both' ? ['sqlite', 'postgres'] : [args.db as Dialect];
if (!dialects.every((d) => d === 'sqlite' || d === 'postgres')) {
  throw new Error(`--db must be sqlite, postgres or both, got "${args.db}"`);
}
const RUNS = Number(args.runs);
const EXPORT_RUNS = Number(args['export-runs']);
const WARMUP = Number(args.warmup);
const SIZE = { employees: Number(args.employees), other: Number(args.other), members: Number(args.members) };
const PAGE_SIZE = 25; // the interface's default (25, 50 or 100 rows per page)
const IMPORT_ROWS = 1000; // the most one import request takes
const PASSWORD = 'benchmark password 1234';
const LOG_LEVEL = args['log-level'] as string;

const LABEL: Record<Dialect, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

function say(message: string): void {
  console.error(`[bench:admin] ${message}`);
}

const cleanups: (() => Promise<void>)[] = [];
async function cleanUp(): Promise<void> {
  for (const undo of cleanups.splice(0).reverse()) await undo().catch((err) => console.error(err));
}
process.on('SIGINT', () => void cleanUp().then(() => process.exit(130)));

// ---------------------------------------------------------------------------------------------
// Seed

// Common names, so a search for "smith" finds what it would in a real company: Smith,
// Smithson, Goldsmith and Blacksmith are 4 of the 53 last names (≈ 7.5 % of the rows).
const FIRST = (
  'James Mary John Patricia Robert Jennifer Michael Linda William Elizabeth David Barbara Richard ' +
  'Susan Joseph Jessica Thomas Sarah Charles Karen Zoë Émile Ann Bo Cy'
).split(' ');
const LAST = (
  'Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez ' +
  'Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark ' +
  'Ramirez Lewis Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill Flores Green Adams ' +
  'Nelson Baker Hall Rivera Campbell Mitchell Carter Roberts Smithson Goldsmith Blacksmith'
).split(' ');

const ascii = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** Person `i`: names drawn from the lists, created a second after the one before. */
function benchEmployee(accountId: number, i: number, domain: string, now: number) {
  const first = FIRST[(i * 7) % FIRST.length] as string;
  const last = LAST[(i * 13 + Math.floor(i / 97)) % LAST.length] as string;
  const email = `${ascii(first)}.${ascii(last)}.${i}@${domain}`;
  return employeeRow(
    accountId,
    { first_name: first, last_name: last, email },
    now - (SIZE.employees - i) * 1000,
  );
}

const BATCH = 2000;

/** Bulk inserts both accounts' employees in one transaction, a batch of the other account after every few of the big one. */
async function insertEmployees(db: Db, big: number, other: number): Promise<number[]> {
  const now = Date.now();
  const bigIds: number[] = [];
  let otherDone = 0;
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < SIZE.employees; start += BATCH) {
      const rows = [];
      for (let i = start; i < Math.min(SIZE.employees, start + BATCH); i++) {
        rows.push(benchEmployee(big, i, 'big.example.com', now));
      }
      const inserted = await trx.insertInto('employees').values(rows).returning('id').execute();
      bigIds.push(...inserted.map((r) => Number(r.id)));
      // The other tenant's rows keep pace (20,000 to 100,000: 400 after each batch of 2,000).
      const due = Math.round(((start + rows.length) * SIZE.other) / SIZE.employees) - otherDone;
      if (due > 0) {
        const theirs = [];
        for (let i = otherDone; i < otherDone + due; i++)
          theirs.push(benchEmployee(other, i, 'other.example.com', now));
        await trx.insertInto('employees').values(theirs).execute();
        otherDone += due;
      }
    }
  });
  return bigIds;
}

interface Seeded {
  accountId: number;
  groupId: number;
  /** A group of all the big account's employees, and a training campaign for it (everyone enrolled). */
  everyoneGroupId: number;
  trainingCampaignId: number;
  adminEmail: string;
  /** A campaign manager whose role is limited to the group of everyone (the campaign's only target). */
  scopedEmail: string;
}

async function seed(url: string): Promise<Seeded> {
  const database = openDatabase(url);
  try {
    const db = database.db;
    await migrateToLatest(db);
    const big = await createAccount(db, { name: 'Big account' });
    const other = await createAccount(db, { name: 'Other account' });
    const ids = await insertEmployees(db, big.id, other.id);
    const group = await createGroup(db, big.id, { name: 'Everyone in the big office' });
    const stride = Math.max(1, Math.floor(ids.length / SIZE.members));
    const members = ids.filter((_, i) => i % stride === 0).slice(0, SIZE.members);
    await replaceMembership(db, { accountId: big.id, groupId: group.id, employeeIds: members });
    const everyone = await createGroup(db, big.id, { name: 'Everyone' });
    await replaceMembership(db, { accountId: big.id, groupId: everyone.id, employeeIds: ids });
    const training = await createCampaign(db, big.id, {
      name: 'Annual training',
      course_keys: ['phishing'],
      group_ids: [everyone.id],
      due_date: new Date(Date.now() + 14 * 86_400_000).toISOString(),
    });
    await launchCampaign(db, { accountId: big.id, campaignId: training.id, trigger: 'now' });
    const adminEmail = 'admin@big.example.com';
    await createAdmin(db, {
      email: adminEmail,
      password: PASSWORD,
      role: 'account_admin',
      accountId: big.id,
    });
    const scopedEmail = 'scoped@big.example.com';
    const scoped = await createAdmin(db, {
      email: scopedEmail,
      password: PASSWORD,
      role: 'account_admin',
      accountRole: 'campaign_manager',
      accountId: big.id,
    });
    await replaceGroupScope(db, big.id, scoped.id, [everyone.id]);
    await sql`analyze`.execute(db);
    return {
      accountId: big.id,
      groupId: group.id,
      everyoneGroupId: everyone.id,
      trainingCampaignId: training.id,
      adminEmail,
      scopedEmail,
    };
  } finally {
    await database.close();
  }
}

// ---------------------------------------------------------------------------------------------
// A signed-in client

interface Answer {
  status: number;
  bytes: number;
  body: Buffer;
  ms: number;
}

/** A browser's view of the admin API: its cookies and the session's CSRF token. */
class AdminClient {
  private readonly cookies = new Map<string, string>();
  private csrf = '';

  constructor(private readonly baseUrl: string) {}

  private keep(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';', 1)[0] as string;
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** Sends one request and reads the whole answer; `ms` is the wall time of both. */
  async send(method: 'GET' | 'POST', path: string, body?: string): Promise<Answer> {
    const headers: Record<string, string> = {
      cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    };
    if (method !== 'GET') headers['x-csrf-token'] = this.csrf;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const start = performance.now();
    const res = await fetch(`${this.baseUrl}${path}`, { method, headers, ...(body ? { body } : {}) });
    const buffer = Buffer.from(await res.arrayBuffer());
    const ms = performance.now() - start;
    this.keep(res);
    return { status: res.status, bytes: buffer.length, body: buffer, ms };
  }

  async signIn(email: string, password: string): Promise<void> {
    const start = await this.send('GET', '/admin/api/session');
    this.csrf = JSON.parse(start.body.toString()).csrf_token;
    const res = await this.send('POST', '/admin/api/session', JSON.stringify({ email, password }));
    if (res.status !== 200) throw new Error(`sign-in: ${res.status} ${res.body.toString()}`);
    this.csrf = JSON.parse(res.body.toString()).csrf_token;
  }
}

// ---------------------------------------------------------------------------------------------
// CPU time

/** CPU time a process's threads have run so far, in ms (Linux /proc/PID/task/TID/schedstat, ns); 0 if gone. */
function cpuOf(pid: number): number {
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    }
    return ns / 1e6;
  } catch {
    return 0;
  }
}

/**
 * The CPU the server process uses, and on PostgreSQL the CPU of the server's backends (its
 * connections to the benchmark database; the server runs on this machine).
 */
class CpuMeter {
  private constructor(
    private readonly serverPid: number,
    private readonly backends: (() => Promise<number[]>) | undefined,
  ) {}

  static async open(serverPid: number, url: string): Promise<CpuMeter & { close(): Promise<void> }> {
    if (!url.startsWith('postgres'))
      return Object.assign(new CpuMeter(serverPid, undefined), { close: async () => {} });
    const name = decodeURIComponent(new URL(url).pathname.slice(1));
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    const pids = async () =>
      (
        await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [name])
      ).rows.map((r) => r.pid);
    return Object.assign(new CpuMeter(serverPid, pids), { close: () => admin.end() });
  }

  /** Starts a measurement; the function returns the CPU ms used since, by the server and by the database. */
  async start(): Promise<() => Promise<{ server: number; database?: number }>> {
    const server = cpuOf(this.serverPid);
    const before = new Map<number, number>();
    for (const pid of (await this.backends?.()) ?? []) before.set(pid, cpuOf(pid));
    return async () => {
      const used = { server: cpuOf(this.serverPid) - server };
      if (!this.backends) return used;
      let database = 0;
      for (const pid of await this.backends()) database += cpuOf(pid) - (before.get(pid) ?? 0);
      return { ...used, database };
    };
  }
}

// ---------------------------------------------------------------------------------------------
// Cases

interface Case {
  label: string;
  /** Sent by the campaign manager limited to a group (docs/roles.md) rather than the owner. */
  scoped?: boolean;
  method: 'GET' | 'POST';
  path: string;
  /** A new body for each request (imports need new addresses). */
  body?: (n: number) => string;
  runs: number;
  /** Throws if the answer is wrong; returns what the answer held, for the table. */
  check: (answer: Answer) => string;
}

interface CaseResult {
  label: string;
  ms: number[];
  /** CPU time of the server process over the timed requests, per request. */
  serverCpuMs: number;
  /** The same for the PostgreSQL backends serving it. */
  databaseCpuMs?: number;
  answer: string;
}

const n = (x: number) => x.toLocaleString('en');

function listCheck(expect: { count?: number; rows: number }) {
  return (a: Answer): string => {
    if (a.status !== 200) throw new Error(`status ${a.status}: ${a.body.toString().slice(0, 200)}`);
    const json = JSON.parse(a.body.toString()) as { count: number; results: unknown[] };
    if (expect.count !== undefined && json.count !== expect.count)
      throw new Error(`count ${json.count}, expected ${expect.count}`);
    if (json.results.length !== expect.rows)
      throw new Error(`${json.results.length} rows, expected ${expect.rows}`);
    return `count ${n(json.count)}, ${json.results.length} rows`;
  };
}

async function countOf(client: AdminClient, path: string): Promise<number> {
  const a = await client.send('GET', path);
  if (a.status !== 200) throw new Error(`GET ${path}: ${a.status} ${a.body.toString().slice(0, 200)}`);
  return (JSON.parse(a.body.toString()) as { count: number }).count;
}

const rowsOnPage = (count: number, page: number) =>
  Math.max(0, Math.min(PAGE_SIZE, count - (page - 1) * PAGE_SIZE));

async function buildCases(client: AdminClient, seeded: Seeded, dialect: Dialect): Promise<Case[]> {
  const base = `/admin/api/accounts/${seeded.accountId}`;
  const list = (query: string) => `${base}/employees?${query}&page_size=${PAGE_SIZE}`;
  const total = SIZE.employees;
  const pages = Math.ceil(total / PAGE_SIZE);
  const middle = Math.ceil(pages / 2);
  // The first page, the middle one (an OFFSET of half the list) and the last, of a full list.
  const positions = [
    [1, 'first'],
    [middle, 'middle'],
    [pages, 'last'],
  ] as const;
  const cases: Case[] = [
    {
      label: 'floor: GET account (session + account check, no list)',
      method: 'GET',
      path: base,
      runs: RUNS,
      check: (a) => {
        if (a.status !== 200) throw new Error(`status ${a.status}`);
        return '1 account';
      },
    },
  ];
  for (const [sort, name] of [
    ['last_name', 'last name'],
    ['first_name', 'first name'],
    ['email', 'email'],
  ] as const) {
    for (const [page, where] of positions) {
      cases.push({
        label: `employees by ${name}, page ${n(page)} (${where})`,
        method: 'GET',
        path: list(`sort=${sort}&page=${page}`),
        runs: RUNS,
        check: listCheck({ count: total, rows: rowsOnPage(total, page) }),
      });
    }
  }

  // A deep page of a search: the last full page (a short last page would tell the total and skip the count).
  const smith = await countOf(client, list('search=smith'));
  const smithDeep = Math.max(1, Math.floor(smith / PAGE_SIZE));
  cases.push(
    {
      label: 'search "smith", page 1',
      method: 'GET',
      path: list('search=smith&page=1'),
      runs: RUNS,
      check: listCheck({ count: smith, rows: rowsOnPage(smith, 1) }),
    },
    {
      label: `search "smith", page ${n(smithDeep)} of ${n(Math.ceil(smith / PAGE_SIZE))}`,
      method: 'GET',
      path: list(`search=smith&page=${smithDeep}`),
      runs: RUNS,
      check: listCheck({ count: smith, rows: rowsOnPage(smith, smithDeep) }),
    },
    {
      label: 'search "nobody-like-this" (no match)',
      method: 'GET',
      path: list('search=nobody-like-this'),
      runs: RUNS,
      check: listCheck({ count: 0, rows: 0 }),
    },
  );
  // Beyond ASCII: the seed's "Émile" in capitals (SQLite's lower() once found none of them).
  const emile = await countOf(client, list(`search=${encodeURIComponent('ÉMILE')}`));
  cases.push({
    label: 'search "ÉMILE", page 1',
    method: 'GET',
    path: list(`search=${encodeURIComponent('ÉMILE')}&page=1`),
    runs: RUNS,
    check: listCheck({ count: emile, rows: rowsOnPage(emile, 1) }),
  });

  const members = `${base}/groups/${seeded.groupId}/members?page_size=${PAGE_SIZE}`;
  const memberPages = Math.ceil(SIZE.members / PAGE_SIZE);
  cases.push(
    {
      label: `${n(SIZE.members)}-member group, page 1`,
      method: 'GET',
      path: `${members}&page=1`,
      runs: RUNS,
      check: listCheck({ count: SIZE.members, rows: rowsOnPage(SIZE.members, 1) }),
    },
    {
      label: `${n(SIZE.members)}-member group, page ${n(memberPages)} (last)`,
      method: 'GET',
      path: `${members}&page=${memberPages}`,
      runs: RUNS,
      check: listCheck({ count: SIZE.members, rows: rowsOnPage(SIZE.members, memberPages) }),
    },
  );

  const everyone = `${base}/groups/${seeded.everyoneGroupId}/members?page_size=${PAGE_SIZE}`;
  for (const [page, where] of positions.slice(0, 2)) {
    cases.push({
      label: `${n(total)}-member group, page ${n(page)} (${where})`,
      method: 'GET',
      path: `${everyone}&page=${page}`,
      runs: RUNS,
      check: listCheck({ count: total, rows: rowsOnPage(total, page) }),
    });
  }

  // The training campaign's people, by name (the web interface's only order), everyone enrolled.
  const enrolled = `${base}/campaigns/${seeded.trainingCampaignId}/enrollments?page_size=${PAGE_SIZE}`;
  for (const [page, where] of positions) {
    cases.push({
      label: `training campaign's people by name, page ${n(page)} (${where})`,
      method: 'GET',
      path: `${enrolled}&page=${page}`,
      runs: RUNS,
      check: listCheck({ count: total, rows: rowsOnPage(total, page) }),
    });
  }
  const enrolledSmith = await countOf(client, `${enrolled}&search=smith`);
  cases.push({
    label: 'training campaign\'s people, search "smith", page 1',
    method: 'GET',
    path: `${enrolled}&search=smith&page=1`,
    runs: RUNS,
    check: listCheck({ count: enrolledSmith, rows: rowsOnPage(enrolledSmith, 1) }),
  });

  // The same lists as the campaign manager limited to the group of everyone (docs/roles.md): each
  // row's person checked against the scope in the same statement, the counts of the scope's people.
  for (const [page, where] of positions) {
    cases.push({
      label: `scoped: training campaign's people by name, page ${n(page)} (${where})`,
      scoped: true,
      method: 'GET',
      path: `${enrolled}&page=${page}`,
      runs: RUNS,
      check: listCheck({ count: total, rows: rowsOnPage(total, page) }),
    });
  }
  const progress = `${base}/campaigns/${seeded.trainingCampaignId}/progress`;
  const progressCheck = (a: Answer) => {
    if (a.status !== 200) throw new Error(`status ${a.status}: ${a.body.toString().slice(0, 200)}`);
    const json = JSON.parse(a.body.toString()) as { counts: { enrolled: number } };
    if (json.counts.enrolled !== total)
      throw new Error(`enrolled ${json.counts.enrolled}, expected ${total}`);
    return `${n(json.counts.enrolled)} enrolled`;
  };
  cases.push(
    {
      label: "training campaign's figures (progress)",
      method: 'GET',
      path: progress,
      runs: RUNS,
      check: progressCheck,
    },
    {
      label: "scoped: training campaign's figures (progress)",
      scoped: true,
      method: 'GET',
      path: progress,
      runs: RUNS,
      check: progressCheck,
    },
  );
  // The outbox: the launch queued an invitation to each of the 100,000.
  const outbox = `${base}/messages?page_size=${PAGE_SIZE}`;
  for (const scoped of [false, true]) {
    cases.push({
      label: `${scoped ? 'scoped: ' : ''}outbox, page 1`,
      ...(scoped ? { scoped } : {}),
      method: 'GET',
      path: `${outbox}&page=1`,
      runs: RUNS,
      check: listCheck({ count: total, rows: PAGE_SIZE }),
    });
  }

  cases.push({
    label: `export.csv (${n(total)} rows)`,
    method: 'GET',
    path: `${base}/employees/export.csv`,
    runs: EXPORT_RUNS,
    check: (a) => {
      if (a.status !== 200) throw new Error(`status ${a.status}`);
      const text = a.body.toString();
      // UTF-8's byte-order mark first (issue 21: Excel reads Öztürk right), then the header.
      if (!text.startsWith('\uFEFFid,first_name,last_name,email,created_at\n'))
        throw new Error('no CSV header');
      const lines = text.split('\n').filter(Boolean).length - 1;
      if (lines !== total) throw new Error(`${lines} rows, expected ${total}`);
      return `${n(lines)} rows, ${(a.bytes / 2 ** 20).toFixed(1)} MiB`;
    },
  });

  // New addresses every request (the real import must create them all).
  const rows = (tag: string, run: number) =>
    JSON.stringify({
      dry_run: tag === 'dry',
      rows: Array.from({ length: IMPORT_ROWS }, (_, i) => ({
        first_name: FIRST[i % FIRST.length],
        last_name: `${LAST[i % LAST.length]} Imported`,
        email: `import.${tag}.${dialect}.${run}.${i}@big.example.com`,
      })),
    });
  const importCheck = (dryRun: boolean) => (a: Answer) => {
    if (a.status !== 200) throw new Error(`status ${a.status}: ${a.body.toString().slice(0, 200)}`);
    const json = JSON.parse(a.body.toString()) as { created: number; results: { status: string }[] };
    const want = dryRun ? 'would_create' : 'created';
    const good = json.results.filter((r) => r.status === want).length;
    if (good !== IMPORT_ROWS || json.created !== (dryRun ? 0 : IMPORT_ROWS))
      throw new Error(`created ${json.created}, ${good} ${want}`);
    return `${n(good)} ${want}`;
  };
  cases.push(
    {
      label: `import ${n(IMPORT_ROWS)} new rows, dry run`,
      method: 'POST',
      path: `${base}/employees/import`,
      body: (run) => rows('dry', run),
      runs: RUNS,
      check: importCheck(true),
    },
    {
      label: `import ${n(IMPORT_ROWS)} new rows`,
      method: 'POST',
      path: `${base}/employees/import`,
      body: (run) => rows('real', run),
      runs: RUNS,
      check: importCheck(false),
    },
  );
  return cases;
}

async function measure(
  clients: Record<'owner' | 'scoped', AdminClient>,
  meter: CpuMeter,
  c: Case,
): Promise<CaseResult> {
  let sent = 0;
  let answer = '';
  const client = c.scoped ? clients.scoped : clients.owner;
  const once = async () => {
    const a = await client.send(c.method, c.path, c.body?.(sent++));
    try {
      answer = c.check(a);
    } catch (err) {
      throw new Error(`${c.label}: ${(err as Error).message}`);
    }
    return a.ms;
  };
  for (let i = 0; i < WARMUP; i++) await once();
  const ms: number[] = [];
  const stop = await meter.start();
  for (let i = 0; i < c.runs; i++) ms.push(await once());
  const cpu = await stop();
  return {
    label: c.label,
    ms,
    serverCpuMs: cpu.server / c.runs,
    ...(cpu.database === undefined ? {} : { databaseCpuMs: cpu.database / c.runs }),
    answer,
  };
}

// ---------------------------------------------------------------------------------------------
// Run and report

/** Nearest rank: the smallest value with at least p of the values at or below it (p95 of 20: the 19th). */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] as number;
}

interface DialectRun {
  dialect: Dialect;
  seedSeconds: number;
  loadAtStart: string;
  results: CaseResult[];
  serverErrors: number;
}

async function runDialect(dialect: Dialect): Promise<DialectRun> {
  const label = LABEL[dialect];
  const loadAtStart = loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');
  const database = await createBenchDatabase(dialect, postgresUrl);
  cleanups.push(async () => (args.keep ? say(`kept ${database.url}`) : database.drop()));
  say(
    `${label}: seeding ${n(SIZE.employees)} + ${n(SIZE.other)} employees, a ${n(SIZE.members)}-member group, a training campaign for all…`,
  );
  const t = performance.now();
  const seeded = await seed(database.url);
  const seedSeconds = (performance.now() - t) / 1000;
  say(`${label}: seeded in ${seedSeconds.toFixed(1)} s`);

  const logFile = join(TMP, `admin-server-${dialect}.log`);
  const server = await startProcess({
    args: ['dist/server.js'],
    env: { NODE_ENV: 'production', DATABASE_URL: database.url, LOG_LEVEL },
    readyPath: '/readyz',
    logFile,
  });
  cleanups.push(() => server.stop());
  const client = new AdminClient(server.baseUrl);
  await client.signIn(seeded.adminEmail, PASSWORD);
  const scopedClient = new AdminClient(server.baseUrl);
  await scopedClient.signIn(seeded.scopedEmail, PASSWORD);
  const meter = await CpuMeter.open(server.pid, database.url);
  cleanups.push(() => meter.close());

  const results: CaseResult[] = [];
  const only = args.only === undefined ? undefined : new RegExp(args.only);
  for (const c of await buildCases(client, seeded, dialect)) {
    if (only && !only.test(c.label)) continue;
    const r = await measure({ owner: client, scoped: scopedClient }, meter, c);
    say(`  ${c.label}: median ${median(r.ms).toFixed(1)} ms, p95 ${percentile(r.ms, 0.95).toFixed(1)} ms`);
    results.push(r);
  }
  await cleanUp();
  const serverErrors = readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((line) => /"level":(50|60)/.test(line)).length;
  return { dialect, seedSeconds, loadAtStart, results, serverErrors };
}

const ms = (x: number) => (x < 10 ? x.toFixed(1) : Math.round(x).toLocaleString('en'));

const ordinal = (k: number) =>
  `${k}${k % 10 === 1 && k !== 11 ? 'st' : k % 10 === 2 && k !== 12 ? 'nd' : k % 10 === 3 && k !== 13 ? 'rd' : 'th'}`;

const machine = () =>
  `${availableParallelism()} vCPU (${cpus()[0]?.model.trim()}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}`;

function render(runs: DialectRun[]): string {
  const first = runs[0] as DialectRun;
  const head = ['case', 'answer'];
  const align = ['---', '---'];
  for (const r of runs) {
    const l = LABEL[r.dialect];
    head.push(`${l} median ms`, 'p95 ms', 'server CPU ms/req');
    align.push('---:', '---:', '---:');
    if (r.dialect === 'postgres') {
      head.push('database CPU ms/req');
      align.push('---:');
    }
  }
  const lines = [
    `## Admin interface lists (${n(SIZE.employees)} employees)`,
    '',
    `- ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, commit ${gitRevision()}`,
    `- machine: ${machine()}; load average at start ${runs.map((r) => `${LABEL[r.dialect]} ${r.loadAtStart}`).join(', ')}`,
    `- seed: one account of ${n(SIZE.employees)} employees and another of ${n(SIZE.other)} (rows interleaved), ` +
      `a group of ${n(SIZE.members)} members (every 10th employee), \`analyze\`; seeded in ` +
      runs.map((r) => `${r.seedSeconds.toFixed(0)} s (${LABEL[r.dialect]})`).join(', '),
    `- one client signed in as the account's administrator, sequential requests over HTTP to \`dist/server.js\` ` +
      `(NODE_ENV=production, LOG_LEVEL=${LOG_LEVEL}), ${PAGE_SIZE} rows a page; per case ${WARMUP} unmeasured requests, ` +
      `then ${RUNS} timed (export: ${EXPORT_RUNS}), from sending to the last byte; p95 is the nearest rank ` +
      `(of ${RUNS}: the ${ordinal(Math.ceil(0.95 * RUNS))}); CPU: the server process's CPU time over the timed ` +
      'requests (all threads, `/proc/PID/task/*/schedstat`) per request, and on PostgreSQL that of the ' +
      'server’s backends (parallel query workers not counted: a lower bound)',
    `- every answer checked (status, count, rows); server log lines at level error or above: ${runs.map((r) => `${r.serverErrors} (${LABEL[r.dialect]})`).join(', ')}`,
    '',
    `| ${head.join(' | ')} |`,
    `|${align.join('|')}|`,
  ];
  for (const [i, c] of first.results.entries()) {
    const answers = [...new Set(runs.map((r) => r.results[i]?.answer))];
    const cells = [c.label, answers.join(' / ')];
    for (const r of runs) {
      const x = r.results[i] as CaseResult;
      cells.push(ms(median(x.ms)), ms(percentile(x.ms, 0.95)), ms(x.serverCpuMs));
      if (r.dialect === 'postgres') cells.push(ms(x.databaseCpuMs ?? Number.NaN));
    }
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

try {
  const runs: DialectRun[] = [];
  const start = performance.now();
  for (const dialect of dialects) runs.push(await runDialect(dialect));
  const section = render(runs);
  console.log(`\n${section}\n`);
  say(`done in ${((performance.now() - start) / 1000).toFixed(0)} s`);
  if (args.write) {
    writeSection(resolve(ROOT, 'bench/RESULTS.md'), 'admin', section);
    say('wrote the admin section of bench/RESULTS.md');
  }
} finally {
  await cleanUp();
}
