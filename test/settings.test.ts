import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pLimit from 'p-limit';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.js';

// Every environment setting with a bad value stops the server, the worker and the `vigil`
// command with one line naming it: no stack trace, a non-zero exit, nothing started.

const ROOT = resolve(import.meta.dirname, '..');

/** One bad value for every variable the server, the worker and the command read. */
const BAD: Record<string, string> = {
  PORT: '80a',
  HOST: 'not a host!',
  DATABASE_URL: 'mysql://db.example.com/vigil',
  REDIS_URL: 'localhost:6379',
  REDIS_TIMEOUT_MS: '5',
  DB_WAIT_SECONDS: '0',
  DB_STATEMENT_TIMEOUT_SECONDS: 'soon',
  PG_POOL_MAX: '0',
  WEB_CONCURRENCY: 'many',
  METRICS_TOKEN: 'short',
  API_KEY_CACHE_SECONDS: '-1',
  TRUST_PROXY: 'yes',
  LOG_LEVEL: 'loud',
  BODY_LIMIT: '8mb',
  REQUEST_TIMEOUT_SECONDS: '0',
  RATE_LIMIT_DEFAULT: '0',
  RATE_LIMIT_FAILED_AUTH: '10',
  RATE_LIMIT_PREFIX: 'has space',
  LAST_USED_FLUSH_MS: '1',
  SESSION_IDLE_MINUTES: '0',
  SESSION_MAX_DAYS: '1000',
  SESSION_SECRET: 'too short',
  SECRETS_KEY: 'short too',
  SIGN_IN_LIMIT_PER_ADDRESS: '0',
  SIGN_IN_LIMIT_PER_EMAIL: 'ten',
  ADMIN_MFA_REQUIRED: 'always',
  PUBLIC_URL: 'training.example.com',
  PHISH_URL: 'ftp://phish.example.com',
  SMTP_URL: 'mail.example.com:25',
  MAIL_FROM: 'training at example',
  MAIL_RATE_PER_MINUTE: '0',
  MAIL_CONCURRENCY: '0',
  MAIL_MAX_ATTEMPTS: '0',
  MAIL_RETRY_BASE_SECONDS: '0',
  MAIL_LEASE_SECONDS: '0',
  WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'on',
  WEBHOOKS_ALLOWED_NETWORKS: '169.254.0.0/16',
  WEBHOOKS_MAX_ENDPOINTS: '0',
  WEBHOOKS_ALLOW_HTTP: 'maybe',
  PHISHING_ALLOW_LOCAL_SENDER: 'perhaps',
  PHISHING_SENDING_IPS: '203.0.113.7/8',
  WEBHOOKS_TIMEOUT_SECONDS: '0',
  WEBHOOKS_LEASE_SECONDS: '0',
  WEBHOOKS_CONCURRENCY: '0',
  WORKERS: 'sometimes',
  SCHEDULER_INTERVAL_SECONDS: '0',
  LEARNER_LINK_DAYS: '0',
  REPORT_READ_TIMEOUT_MS: '5',
  REPORT_DOMAIN: 'not a domain!',
  REPORT_SMTP_PORT: 'smtp',
  REPORT_SMTP_HOST: 'not a host!',
  REPORT_SMTP_TLS_CERT: '/nonexistent/cert.pem',
  REPORT_SMTP_TLS_KEY: '/nonexistent/key.pem',
  REPORT_SMTP_MAX_BYTES: '20971520',
  REPORT_SMTP_CONNECTIONS_PER_ADDRESS: '0',
  REPORT_SMTP_MAX_CONNECTIONS: '0',
};

/** The variables the sources read (env.NAME, env['NAME'], helpers called as integer(env, 'NAME', …)). */
function variablesTheSourcesRead(dir = join(ROOT, 'src')): Set<string> {
  const names = new Set<string>();
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) {
      for (const name of variablesTheSourcesRead(path)) names.add(name);
    } else if (path.endsWith('.ts') && !path.endsWith('.test.ts')) {
      const source = readFileSync(path, 'utf8');
      for (const m of source.matchAll(
        /\benv(?:\.([A-Z][A-Z0-9_]*)|\[['"]([A-Z][A-Z0-9_]*)['"]\]|,\s*'([A-Z][A-Z0-9_]*)')/g,
      )) {
        names.add((m[1] ?? m[2] ?? m[3])!);
      }
    }
  }
  return names;
}

// Nothing may be created where the settings are refused: the database is a file in a folder of its own.
const dir = mkdtempSync(join(tmpdir(), 'vigil-settings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A clean environment: no setting of the machine's own, a database that must never appear. */
function environment(name: string, value: string): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, DATABASE_URL: `sqlite:${join(dir, 'never.db')}`, [name]: value };
}

async function run(script: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [resolve(ROOT, script), ...args], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  // 'close', not 'exit': a process can exit before its output has been read from the pipes.
  const [code] = await once(child, 'close');
  clearTimeout(timer);
  return { code: code as number | null, stdout, stderr };
}

/** One line that names the variable and what it got; nothing that looks like a stack trace. */
function expectOneClearLine(stderr: string, name: string, prefix: string) {
  expect(stderr.endsWith('\n'), stderr).toBe(true);
  expect(stderr.trimEnd().split('\n'), stderr).toHaveLength(1);
  expect(stderr.startsWith(prefix), stderr).toBe(true);
  expect(stderr).toContain(name);
  expect(stderr).not.toMatch(/^\s+at |Error:|node:internal/m);
}

describe('environment settings', () => {
  it('every variable the sources read has a bad value here', () => {
    expect(Object.keys(BAD).sort()).toEqual([...variablesTheSourcesRead()].sort());
  });

  it('the server refuses each bad value with one clear line on stderr and exits non-zero', async () => {
    const limit = pLimit(3);
    const results = await Promise.all(
      Object.entries(BAD).map(([name, value]) =>
        limit(async () => ({ name, ...(await run('dist/server.js', [], environment(name, value))) })),
      ),
    );
    for (const { name, code, stdout, stderr } of results) {
      expect(code, `${name}: ${stderr}`).toBe(1);
      expect(stdout, name).toBe('');
      expectOneClearLine(stderr, name, 'vigil: could not start: ');
    }
    expect(readdirSync(dir)).toEqual([]);
  }, 300_000);

  it('the vigil command refuses each bad value with one clear line (one JSON object with --json)', async () => {
    for (const [name, value] of Object.entries(BAD)) {
      for (const json of [false, true]) {
        let stdout = '';
        let stderr = '';
        const code = await main(['account', 'list', ...(json ? ['--json'] : [])], {
          stdout: (text) => {
            stdout += text;
          },
          stderr: (text) => {
            stderr += text;
          },
          env: environment(name, value),
        });
        expect(code, `${name}: ${stderr}`).toBe(2);
        expect(stdout, name).toBe('');
        if (json) {
          expect(Object.keys(JSON.parse(stderr)), name).toEqual(['error']);
          expectOneClearLine(stderr, name, '{"error":');
        } else {
          expectOneClearLine(stderr, name, 'vigil: ');
        }
      }
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each([
    ['LOG_LEVEL', 'loud'],
    ['TRUST_PROXY', 'yes'],
  ])('`vigil worker` refuses %s=%s with one clear line and exits non-zero', async (name, value) => {
    const res = await run('bin/vigil.js', ['worker'], environment(name, value));
    expect(res.code, res.stderr).toBe(2);
    expect(res.stdout).toBe('');
    expectOneClearLine(res.stderr, name, 'vigil: ');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a listening address this machine does not have is one clear line too', async () => {
    // 192.0.2.1 is TEST-NET-1: never an address of this machine. (The database is made first.)
    const res = await run('dist/server.js', [], {
      ...environment('HOST', '192.0.2.1'),
      DATABASE_URL: `sqlite:${join(dir, 'listen', 'vigil.db')}`,
      PORT: '0',
    });
    expect(res.code, res.stderr).toBe(1);
    expectOneClearLine(res.stderr, 'HOST', 'vigil: could not start: ');
  });
});
