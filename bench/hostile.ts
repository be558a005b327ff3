import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { reportedMailAttacks } from '../test/helpers/hostile-payloads.js';
import { RedisServer } from '../test/helpers/redis-server.js';
import { freePort } from '../test/helpers/server-process.js';
import { gitRevision, ROOT, TMP } from './processes.js';
import { writeSection } from './report.js';

/**
 * Issue 19's reproductions, each against a fresh built server (SQLite), measured from outside:
 *
 *   npm run bench:hostile [-- --baseline DIR] [--only TEXT] [--write]
 *
 * For each case: the answer (status, code), the slowest `/healthz` answer while it ran (asked
 * every 20 ms by this process: how long the server's event loop was held), the server's peak
 * RSS, and whether the process was still there afterwards. `--baseline DIR` runs the same cases
 * against another checkout's build (DIR/dist/server.js, e.g. a worktree of an older commit) in
 * the same run, for a before/after table. With --write the table replaces the `hostile` section
 * of bench/RESULTS.md.
 */

const { values: args } = parseArgs({
  options: {
    baseline: { type: 'string' },
    only: { type: 'string' },
    write: { type: 'boolean', default: false },
  },
});

const MIB = 1024 * 1024;
/** A request not answered in this long is abandoned (its server killed): "stalled for at least this long". */
const GIVE_UP_MS = 120_000;
const say = (message: string) => console.error(`[bench:hostile] ${message}`);

interface Server {
  base: string;
  redis: RedisServer;
  pid: number;
  exited: () => boolean;
  stop(): Promise<void>;
}

interface Seeded {
  /** The server's address, which is also its phish URL. */
  base: string;
  key: string;
  scim: string;
  scimUser: string;
  csrf: Record<string, string>;
}

async function startServer(root: string): Promise<{ server: Server; seeded: Seeded }> {
  mkdirSync(TMP, { recursive: true });
  const dir = mkdtempSync(resolve(TMP, 'hostile-'));
  // A Redis of its own: stopping it makes the server log a warning (case 2 needs one).
  const redis = await RedisServer.start();
  const env = {
    REDIS_URL: redis.url,
    PATH: process.env.PATH,
    DATABASE_URL: `sqlite:${resolve(dir, 'vigil.db')}`,
    // Every request logs a line, as in production: a polluted built-in the logger uses shows at once.
    LOG_LEVEL: 'info',
    METRICS_TOKEN: 'm'.repeat(40),
  };
  const cli = (...words: string[]) =>
    JSON.parse(
      execFileSync(process.execPath, [resolve(root, 'bin/vigil.js'), ...words, '--json'], { env }).toString(),
    );
  const account = cli('account', 'create', '--name', 'Hostile');
  const key = cli(
    'key',
    'create',
    '--account',
    String(account.id),
    '--name',
    'k',
    '--grant',
    'employees:rw',
    '--grant',
    'groups:rw',
    '--grant',
    'campaigns:rw',
    '--rate-limit',
    '100000',
  ).key;
  cli(
    'admin',
    'create',
    '--operator',
    '--email',
    'op@example.com',
    '--password',
    'correct horse battery staple',
  );
  const port = await freePort();
  const child = spawn(process.execPath, [resolve(root, 'dist/server.js')], {
    env: { ...env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: 'ignore',
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) break;
    } catch {}
    if (i > 300) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  // Signed in as the operator: a SCIM token for the account, and a SCIM user to patch.
  const start = await fetch(`${base}/admin/api/session`);
  const cookie = start.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const csrf = { cookie, 'x-csrf-token': ((await start.json()) as { csrf_token: string }).csrf_token };
  const signIn = await fetch(`${base}/admin/api/session`, {
    method: 'POST',
    headers: { ...csrf, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'op@example.com', password: 'correct horse battery staple' }),
  });
  const session = {
    cookie: [cookie, ...signIn.headers.getSetCookie().map((c) => c.split(';')[0])].join('; '),
    'x-csrf-token': ((await signIn.json()) as { csrf_token: string }).csrf_token,
  };
  const token = await fetch(`${base}/admin/api/accounts/${account.id}/scim-tokens`, {
    method: 'POST',
    headers: { ...session, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Okta' }),
  });
  const scim = ((await token.json()) as { token: string }).token;
  const user = await fetch(`${base}/scim/v2/Users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${scim}`, 'content-type': 'application/scim+json' },
    body: JSON.stringify({
      userName: 'u@example.com',
      name: { givenName: 'U', familyName: 'S' },
      emails: [{ value: 'u@example.com', primary: true }],
      active: true,
    }),
  });
  const scimUser = ((await user.json()) as { id: string }).id;
  const server: Server = {
    base,
    redis,
    pid: child.pid as number,
    exited: () => child.exitCode !== null || child.signalCode !== null,
    async stop() {
      if (!server.exited()) {
        child.kill('SIGKILL');
        await new Promise((r) => child.once('exit', r));
      }
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return { server, seeded: { base, key, scim, scimUser, csrf } };
}

interface Case {
  name: string;
  request(seeded: Seeded): {
    method: string;
    path: string;
    headers: Record<string, string>;
    body?: Buffer | string;
  };
  /** Asked after the request, when the case is about what follows it. */
  afterwards?: (server: Server, seeded: Seeded) => Promise<string>;
}

const report = (message: Buffer) => (s: Seeded) => ({
  method: 'POST',
  path: '/api/api_gateway/customer/campaigns/phishing/reports/',
  headers: { apikey: s.key, 'content-type': 'message/rfc822' },
  body: message,
});
const nestedRow = (size: number) =>
  `{"employees":[{"first_name":"A","last_name":"B","email":"nested@example.com","x":${'['.repeat(size)}${']'.repeat(size)}}]}`;

const CASES: Case[] = [
  ...reportedMailAttacks('http://names.only').map(
    ({ name }): Case => ({
      name: `1. report: ${name}`,
      request: (s) => report(reportedMailAttacks(s.base).find((a) => a.name === name)?.message as Buffer)(s),
    }),
  ),
  {
    name: '2. SCIM PATCH path hasOwnProperty.call',
    request: (s) => ({
      method: 'PATCH',
      path: `/scim/v2/Users/${s.scimUser}`,
      headers: { authorization: `Bearer ${s.scim}`, 'content-type': 'application/scim+json' },
      body: JSON.stringify({
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'add', path: 'hasOwnProperty.call', value: 'x' }],
      }),
    }),
    // The next warning the server logs (Redis going away) goes through the logger's own use of it.
    afterwards: async (server) => {
      await server.redis.stop();
      await new Promise((r) => setTimeout(r, 2000));
      const answer = await fetch(`${server.base}/healthz`).catch(() => null);
      return `Redis stopped, then /healthz: ${answer ? answer.status : 'no answer'}`;
    },
  },
  ...[
    '/v/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    '/v/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/i',
    '/learn/x/new-link',
  ].map(
    (path): Case => ({
      name: `3. POST ${path.replace(/A{32}/, '<token>')}: 8 MiB of [ as JSON`,
      request: () => ({
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json' },
        body: '['.repeat(8 * MIB - 64),
      }),
    }),
  ),
  {
    name: '3. admin sign-in (anonymous CSRF token): 8 MiB of [',
    request: (s) => ({
      method: 'POST',
      path: '/admin/api/session',
      headers: { ...s.csrf, 'content-type': 'application/json' },
      body: '['.repeat(8 * MIB - 64),
    }),
  },
  {
    name: '4. bulk: one row with a value nested 4 M deep (8 MiB)',
    request: (s) => ({
      method: 'POST',
      path: '/api/api_gateway/customer/employees/bulk/',
      headers: { apikey: s.key, 'content-type': 'application/json' },
      body: nestedRow(4 * MIB - 64),
    }),
  },
  {
    name: '4. bulk: the same with an Idempotency-Key',
    request: (s) => ({
      method: 'POST',
      path: '/api/api_gateway/customer/employees/bulk/',
      headers: { apikey: s.key, 'content-type': 'application/json', 'idempotency-key': 'k1' },
      body: nestedRow(4 * MIB - 64),
    }),
  },
  {
    name: '4. bulk: one row nested 16 M deep (32 MiB)',
    request: (s) => ({
      method: 'POST',
      path: '/api/api_gateway/customer/employees/bulk/',
      headers: { apikey: s.key, 'content-type': 'application/json' },
      body: nestedRow(16 * MIB - 64),
    }),
  },
  {
    name: '7. GET /metrics with wrong tokens',
    request: () => ({ method: 'GET', path: '/metrics', headers: { authorization: 'Bearer guess-0' } }),
    afterwards: async (server) => {
      for (let i = 1; i <= 200; i++) {
        const res = await fetch(`${server.base}/metrics`, {
          headers: { authorization: `Bearer guess-${i}` },
        });
        if (res.status === 429) return `429 after ${i} guesses`;
      }
      return 'never limited in 200 guesses';
    },
  },
];

interface Row {
  answer: string;
  slowestMs: number;
  peakMiB: number;
  after: string;
}

function peakMiB(pid: number): number {
  try {
    return Number(/^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
  } catch {
    return Number.NaN;
  }
}

async function measure(root: string, test: Case): Promise<Row> {
  const { server, seeded } = await startServer(root);
  try {
    // Made before the poller starts: building 180,000 tokens here would delay this process's polls.
    const { method, path, headers, body } = test.request(seeded);
    let slowest = 0;
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const started = performance.now();
        await fetch(`${server.base}/healthz`, { signal: AbortSignal.timeout(GIVE_UP_MS) })
          .then((r) => r.arrayBuffer())
          .catch(() => {});
        slowest = Math.max(slowest, performance.now() - started);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    let answer: string;
    try {
      const res = await fetch(`${server.base}${path}`, {
        method,
        headers,
        ...(body !== undefined && { body: typeof body === 'string' ? body : new Uint8Array(body) }),
        signal: AbortSignal.timeout(GIVE_UP_MS),
      });
      const text = await res.text();
      const code = /"code":"([a-z_]+)"/.exec(text)?.[1] ?? /"scimType":"([A-Za-z]+)"/.exec(text)?.[1];
      answer = `${res.status}${code ? ` ${code}` : ''}`;
    } catch {
      // Its event loop may be held for minutes (it cannot hear SIGTERM then): killed by stop().
      answer = `no answer in ${GIVE_UP_MS / 1000} s`;
      slowest = Math.max(slowest, GIVE_UP_MS);
    }
    let after = test.afterwards ? await test.afterwards(server, seeded) : '';
    await new Promise((r) => setTimeout(r, 300));
    polling = false;
    await poller;
    const peak = peakMiB(server.pid);
    after = [after, server.exited() ? 'process exited' : 'process up'].filter(Boolean).join('; ');
    return { answer, slowestMs: slowest, peakMiB: peak, after };
  } finally {
    await server.stop();
  }
}

const cell = (row: Row | undefined) =>
  row
    ? `${row.answer} | ${Math.round(row.slowestMs).toLocaleString('en')} | ${Number.isNaN(row.peakMiB) ? '–' : Math.round(row.peakMiB)} | ${row.after}`
    : '';

const lines = [
  '## Hostile input (issue 19): one request each, against the built server',
  '',
  `Revision ${gitRevision()}${args.baseline ? `, baseline ${args.baseline}` : ''}; SQLite; ${new Date().toISOString().slice(0, 10)}.`,
  '',
  `| case | ${args.baseline ? 'before: answer | slowest /healthz ms | peak RSS MiB | then | ' : ''}answer | slowest /healthz ms | peak RSS MiB | then |`,
  `|---|${args.baseline ? '---|---:|---:|---|' : ''}---|---:|---:|---|`,
];
for (const test of CASES.filter((c) => !args.only || c.name.includes(args.only as string))) {
  say(test.name);
  const before = args.baseline ? await measure(resolve(args.baseline), test) : undefined;
  const after = await measure(ROOT, test);
  lines.push(`| ${test.name} | ${before ? `${cell(before)} | ` : ''}${cell(after)} |`);
}
const markdown = lines.join('\n');
console.log(markdown);
if (args.write) writeSection(resolve(ROOT, 'bench/RESULTS.md'), 'hostile', markdown);
