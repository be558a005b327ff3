import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, signIn } from '../../test/helpers/admin.js';
import { buildTestApp } from '../../test/helpers/app.js';
import { runVigil } from '../../test/helpers/cli.js';
import { createTestDatabase } from '../../test/helpers/database.js';
import { client } from '../../test/helpers/factories.js';
import { runCli } from '../../test/helpers/server-process.js';
import { hashApiKey } from '../auth/api-key-secret.js';
import { describeDatabase } from '../db/database.js';

/** The real app on the database the commands work on: what the CLI makes must work over the API. */
let app: FastifyInstance;
let databaseUrl: string;

beforeAll(async () => {
  ({ app, databaseUrl } = await buildTestApp());
});

/** Runs `vigil …` in-process on `url` (the file's database unless told), capturing its output. */
const vigil = (args: string[], url = databaseUrl) => runVigil(args, { DATABASE_URL: url });

/** What a command prints on stderr, without --json, about the database it works on. */
const databaseLine = (url = databaseUrl) => `database: ${describeDatabase(url)}\n`;

/**
 * Runs a command with --json that must succeed, and returns the one JSON object it printed,
 * less the `database` every command adds (checked here).
 */
async function vigilJson(args: string[], url = databaseUrl) {
  const res = await vigil([...args, '--json'], url);
  expect(res.stderr, args.join(' ')).toBe('');
  expect(res.code).toBe(0);
  expect(res.stdout.endsWith('\n')).toBe(true);
  expect(res.stdout.trim().split('\n')).toHaveLength(1);
  const { database: shown, ...printed } = JSON.parse(res.stdout);
  expect(typeof printed === 'object' && printed !== null && !Array.isArray(printed)).toBe(true);
  expect(shown).toBe(describeDatabase(url));
  return printed;
}

/** A command that must fail: a message on stderr, nothing on stdout, a non-zero exit code. */
async function expectFailure(args: string[], message: RegExp) {
  const res = await vigil(args);
  expect(res.code, args.join(' ')).not.toBe(0);
  expect(res.stdout, args.join(' ')).toBe('');
  expect(res.stderr, args.join(' ')).toMatch(message);
  return res;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function newAccount(name = 'Acme') {
  return (await vigilJson(['account', 'create', '--name', name])) as { id: number; name: string };
}

async function newKey(accountId: number, ...extra: string[]) {
  return vigilJson(['key', 'create', '--account', String(accountId), '--name', 'HR sync', ...extra]);
}

describe('vigil migrate', () => {
  it('applies pending migrations once, then reports the database up to date', async () => {
    const fresh = await createTestDatabase();
    try {
      const first = await vigilJson(['migrate'], fresh.url);
      expect(first.applied.length).toBeGreaterThan(0);
      expect(first.applied.every((name: unknown) => typeof name === 'string')).toBe(true);
      expect(await vigilJson(['migrate'], fresh.url)).toEqual({ applied: [] });
      const human = await vigil(['migrate'], fresh.url);
      expect(human).toEqual({ code: 0, stdout: 'database is up to date\n', stderr: databaseLine(fresh.url) });
    } finally {
      await fresh.drop();
    }
  });
});

describe('vigil account', () => {
  it('creates an account and prints it as one JSON object', async () => {
    const account = await vigilJson(['account', 'create', '--name', '  Acme Corp ']);
    expect(account).toMatchObject({ name: 'Acme Corp' });
    expect(Number.isInteger(account.id) && account.id > 0).toBe(true);
    expect(account.created_at).toMatch(ISO);
  });

  it('prints a human line without --json', async () => {
    const res = await vigil(['account', 'create', '--name', 'Globex']);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe(databaseLine());
    expect(res.stdout).toMatch(/^created account \d+ "Globex"\n$/);
  });

  it('lists accounts by name, a page at a time, saying which page of how many', async () => {
    const fresh = await createTestDatabase();
    try {
      const url = fresh.url;
      await vigilJson(['migrate'], url);
      expect(await vigilJson(['account', 'list'], url)).toEqual({
        count: 0,
        results: [],
        page: 1,
        page_size: 25,
        pages: 1,
      });
      expect((await vigil(['account', 'list'], url)).stdout).toBe('no accounts yet\n');
      const umbrella = await vigilJson(['account', 'create', '--name', 'Umbrella'], url);
      const acme = await vigilJson(['account', 'create', '--name', 'acme'], url);
      const initech = await vigilJson(['account', 'create', '--name', 'Initech'], url);

      const first = ['account', 'list', '--page-size', '2'];
      expect(await vigilJson(first, url)).toEqual({
        count: 3,
        results: [acme, initech],
        page: 1,
        page_size: 2,
        pages: 2,
      });
      expect((await vigil(first, url)).stdout).toBe(
        `${acme.id}\tacme\n${initech.id}\tInitech\npage 1 of 2 (3 accounts)\n`,
      );
      const second = await vigilJson([...first, '--page', '2'], url);
      expect(second).toMatchObject({ count: 3, results: [umbrella], page: 2, pages: 2 });
      // Past the last page: nothing on it, the total still right (as the admin API's lists).
      expect(await vigilJson([...first, '--page', '3'], url)).toMatchObject({
        count: 3,
        results: [],
        page: 3,
      });
      expect((await vigil([...first, '--page', '3'], url)).stdout).toBe(
        'page 3 of 2 (3 accounts): none on this page\n',
      );
      // As in the admin API, a larger page size is clamped to 200.
      expect(await vigilJson(['account', 'list', '--page-size', '5000'], url)).toMatchObject({
        count: 3,
        page_size: 200,
        pages: 1,
      });
    } finally {
      await fresh.drop();
    }
  });

  it('refuses a page or page size that is not a positive integer', async () => {
    for (const args of [
      ['--page', '0'],
      ['--page', 'two'],
      ['--page-size', '0'],
      ['--page-size', '-5'],
    ]) {
      const res = await expectFailure(['account', 'list', ...args], /must be a positive integer/);
      expect(res.code).toBe(2);
    }
    const help = await vigil(['account', 'list', '--help']);
    expect(help.stdout).toMatch(/--page-size <n>\s+items a page \(default 25, at most 200\)/);
  });

  it('refuses a missing or empty name', async () => {
    await expectFailure(['account', 'create'], /--name/);
    await expectFailure(['account', 'create', '--json'], /--name/);
    await expectFailure(['account', 'create', '--name', '  '], /Validation failed/);
  });
});

describe('vigil key create', () => {
  it('prints the key once with its prefix and permissions', async () => {
    const account = await newAccount();
    const created = await newKey(account.id, '--grant', 'employees:rw', '--grant', 'groups:r');
    expect(created).toMatchObject({
      name: 'HR sync',
      account_id: account.id,
      permissions: ['employees:read', 'employees:write', 'groups:read'],
      rate_limit: 600,
      status: 'active',
    });
    expect(created.key).toMatch(/^vgl_[0-9A-Za-z]{32,}$/);
    expect(created.key.startsWith(created.prefix)).toBe(true);
    expect(created.prefix.length).toBeLessThan(created.key.length);
  });

  it('makes a key that works against the API, with the permissions and budget it was given', async () => {
    const account = await newAccount();
    const created = await newKey(account.id, '--grant', 'campaigns:r', '--rate-limit', '7');
    expect(created.rate_limit).toBe(7);
    const api = client(app, created.key);
    const ok = await api.get('/customer/campaigns/training/');
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['ratelimit-limit']).toBe('7');
    const forbidden = await api.get('/customer/groups/');
    expect(forbidden.statusCode).toBe(403);
  });

  it('shows the key in human output with a warning that it is shown once', async () => {
    const account = await newAccount();
    const res = await vigil([
      'key',
      'create',
      '--account',
      String(account.id),
      '--name',
      'Script',
      '--grant',
      'groups:rw',
    ]);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe(databaseLine());
    const key = res.stdout.match(/vgl_[0-9A-Za-z]{32,}/)?.[0];
    expect(key).toBeDefined();
    expect(res.stdout).toMatch(/shown only this once/);
    expect((await client(app, key!).get('/customer/groups/')).statusCode).toBe(200);
  });

  it('refuses bad input with a message on stderr and creates nothing', async () => {
    const account = await newAccount();
    const id = String(account.id);
    const base = ['key', 'create', '--account', id, '--name', 'k'];
    await expectFailure(['key', 'create', '--account', id, '--grant', 'groups:r'], /--name/);
    await expectFailure(['key', 'create', '--name', 'k', '--grant', 'groups:r'], /--account/);
    await expectFailure(base, /--grant/);
    await expectFailure([...base, '--grant', 'foo:rw'], /invalid grant "foo:rw"/);
    await expectFailure([...base, '--grant', 'groups:x'], /invalid grant "groups:x"/);
    await expectFailure([...base, '--grant', 'groups:r', '--rate-limit', '0'], /--rate-limit/);
    await expectFailure([...base, '--grant', 'groups:r', '--rate-limit', 'many'], /--rate-limit/);
    await expectFailure([...base, '--grant', 'groups:r', '--expires-at', 'soon'], /--expires-at/);
    await expectFailure(
      ['key', 'create', '--account', 'abc', '--name', 'k', '--grant', 'groups:r'],
      /--account must be a positive integer/,
    );
    await expectFailure(
      ['key', 'create', '--account', '999999', '--name', 'k', '--grant', 'groups:r'],
      /Account not found/,
    );
    expect((await vigilJson(['key', 'list', '--account', id])).results).toEqual([]);
  });

  it('reports errors as JSON on stderr with --json', async () => {
    const res = await expectFailure(
      ['key', 'create', '--account', '999999', '--name', 'k', '--grant', 'groups:r', '--json'],
      /Account not found/,
    );
    expect(JSON.parse(res.stderr)).toEqual({
      error: 'Account not found',
      status: 404,
      code: 'account_not_found',
      database: describeDatabase(databaseUrl),
    });
  });
});

describe('vigil key list, revoke and set-rate-limit', () => {
  it('lists the keys of an account without secrets or hashes', async () => {
    const account = await newAccount();
    const other = await newAccount();
    const first = await newKey(account.id, '--grant', 'employees:r');
    const second = await newKey(account.id, '--grant', 'groups:rw');
    await newKey(other.id, '--grant', 'groups:rw');

    const res = await vigil(['key', 'list', '--account', String(account.id), '--json']);
    const listed = JSON.parse(res.stdout);
    expect(listed).toMatchObject({ account_id: account.id, count: 2, page: 1, page_size: 25, pages: 1 });
    expect(listed.results.map((k: { id: number }) => k.id)).toEqual([first.id, second.id]);
    expect(listed.results[0]).toMatchObject({
      name: 'HR sync',
      prefix: first.prefix,
      permissions: ['employees:read'],
      status: 'active',
    });
    const human = (await vigil(['key', 'list', '--account', String(account.id)])).stdout;
    expect(human).toMatch(/\npage 1 of 1 \(2 keys\)\n$/);
    for (const printed of [res.stdout, human]) {
      for (const secret of [first.key, second.key, hashApiKey(first.key), hashApiKey(second.key)]) {
        expect(printed).not.toContain(secret);
      }
      expect(printed).toContain(first.prefix);
    }
    for (const key of listed.results) {
      expect(Object.keys(key)).not.toContain('key');
      expect(Object.keys(key)).not.toContain('secret_hash');
    }
  });

  it('lists the keys a page at a time', async () => {
    const account = await newAccount();
    const keys = [];
    for (const grant of ['employees:r', 'groups:r', 'campaigns:r'])
      keys.push(await newKey(account.id, '--grant', grant));
    const id = String(account.id);
    const page = await vigilJson(['key', 'list', '--account', id, '--page', '2', '--page-size', '2']);
    expect(page).toMatchObject({ account_id: account.id, count: 3, page: 2, page_size: 2, pages: 2 });
    expect(page.results.map((k: { id: number }) => k.id)).toEqual([keys[2]!.id]);
    const human = await vigil(['key', 'list', '--account', id, '--page', '2', '--page-size', '2']);
    expect(human.stdout).toMatch(
      new RegExp(`^${keys[2]!.id} "HR sync"\n[\\s\\S]*\npage 2 of 2 \\(3 keys\\)\n$`),
    );
    expect((await vigil(['key', 'list', '--account', String((await newAccount()).id)])).stdout).toBe(
      'no keys\n',
    );
  });

  it('refuses an unknown or malformed account', async () => {
    await expectFailure(['key', 'list', '--account', '999999'], /Account not found/);
    await expectFailure(['key', 'list', '--account', 'abc'], /--account/);
  });

  it('revokes a key, which then stops working', async () => {
    const account = await newAccount();
    const created = await newKey(account.id, '--grant', 'campaigns:r');
    expect((await client(app, created.key).get('/customer/campaigns/training/')).statusCode).toBe(200);

    const revoked = await vigilJson(['key', 'revoke', '--id', String(created.id)]);
    expect(revoked).toMatchObject({ id: created.id, status: 'revoked' });
    expect(revoked.revoked_at).toMatch(ISO);
    expect(revoked).not.toHaveProperty('key');
    const res = await client(app, created.key).get('/customer/campaigns/training/');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'Invalid API key', status: 401 });

    const human = await vigil(['key', 'revoke', '--id', String(created.id)]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`^revoked API key ${created.id} "HR sync"`));
  });

  it('refuses to revoke an unknown key', async () => {
    await expectFailure(['key', 'revoke', '--id', '999999'], /API key not found/);
    await expectFailure(['key', 'revoke'], /--id/);
  });

  it("changes a key's budget, which the API applies", async () => {
    const account = await newAccount();
    const created = await newKey(account.id, '--grant', 'campaigns:r', '--rate-limit', '5');
    const updated = await vigilJson([
      'key',
      'set-rate-limit',
      '--id',
      String(created.id),
      '--rate-limit',
      '1200',
    ]);
    expect(updated).toMatchObject({ id: created.id, rate_limit: 1200 });
    expect(updated).not.toHaveProperty('key');
    const res = await client(app, created.key).get('/customer/campaigns/training/');
    expect(res.headers['ratelimit-limit']).toBe('1200');

    const human = await vigil(['key', 'set-rate-limit', '--id', String(created.id), '--rate-limit', '900']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/900\/min/);
    await expectFailure(
      ['key', 'set-rate-limit', '--id', String(created.id), '--rate-limit', '0'],
      /--rate-limit/,
    );
    await expectFailure(
      ['key', 'set-rate-limit', '--id', '999999', '--rate-limit', '10'],
      /API key not found/,
    );
  });
});

describe('vigil group create', () => {
  it('creates an empty group that the account sees over the API', async () => {
    const account = await newAccount();
    const group = await vigilJson([
      'group',
      'create',
      '--account',
      String(account.id),
      '--name',
      'Sales',
      '--description',
      'Everyone in sales',
    ]);
    expect(group).toMatchObject({
      account_id: account.id,
      name: 'Sales',
      description: 'Everyone in sales',
      employee_count: 0,
    });
    const { key } = await newKey(account.id, '--grant', 'groups:r');
    const res = await client(app, key).get(`/customer/groups/${group.id}/`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: group.id,
      name: 'Sales',
      description: 'Everyone in sales',
      employee_count: 0,
      employees: [],
    });
  });

  it('prints a human line without --json', async () => {
    const account = await newAccount();
    const res = await vigil(['group', 'create', '--account', String(account.id), '--name', 'Ops']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(new RegExp(`^created group \\d+ "Ops" in account ${account.id}\\n$`));
  });

  it('refuses bad input', async () => {
    await expectFailure(['group', 'create', '--account', '1'], /--name/);
    await expectFailure(['group', 'create', '--account', '999999', '--name', 'G'], /Account not found/);
    await expectFailure(['group', 'create', '--account', 'abc', '--name', 'G'], /--account/);
  });
});

describe('vigil campaign create', () => {
  it('creates a draft campaign targeting groups, visible over the API', async () => {
    const account = await newAccount();
    const id = String(account.id);
    const group = await vigilJson(['group', 'create', '--account', id, '--name', 'Sales']);
    const campaign = await vigilJson([
      'campaign',
      'create',
      '--account',
      id,
      '--name',
      'Phishing basics',
      '--group',
      String(group.id),
    ]);
    expect(campaign).toMatchObject({ name: 'Phishing basics', status: 'draft', group_ids: [group.id] });
    expect(Number.isInteger(campaign.id)).toBe(true);

    const { key } = await newKey(account.id, '--grant', 'campaigns:r');
    const res = await client(app, key).get('/customer/campaigns/training/');
    expect(res.json()).toMatchObject({
      count: 1,
      results: [{ id: campaign.id, name: 'Phishing basics', status: 'draft', group_ids: [group.id] }],
    });
  });

  it('prints a human line without --json', async () => {
    const account = await newAccount();
    const res = await vigil(['campaign', 'create', '--account', String(account.id), '--name', 'Basics']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^created training campaign \d+ "Basics" \(draft\)\n$/);
  });

  it("refuses another account's group and creates nothing", async () => {
    const account = await newAccount();
    const other = await newAccount();
    const theirs = await vigilJson(['group', 'create', '--account', String(other.id), '--name', 'Theirs']);
    await expectFailure(
      ['campaign', 'create', '--account', String(account.id), '--name', 'C', '--group', String(theirs.id)],
      new RegExp(`Validation failed[\\s\\S]*${theirs.id}`),
    );
    await expectFailure(
      ['campaign', 'create', '--account', String(account.id), '--name', 'C', '--group', 'abc'],
      /--group/,
    );
    await expectFailure(['campaign', 'create', '--account', '999999', '--name', 'C'], /Account not found/);
    await expectFailure(['campaign', 'create', '--account', String(account.id)], /--name/);
    const { key } = await newKey(account.id, '--grant', 'campaigns:r');
    expect((await client(app, key).get('/customer/campaigns/training/')).json().count).toBe(0);
  });
});

describe('vigil admin', () => {
  it('creates an operator and an account administrator who can then sign in to the web interface', async () => {
    const account = await newAccount('Umbrella');
    const operator = await vigilJson([
      'admin',
      'create',
      '--email',
      'root@example.com',
      '--password',
      ADMIN_PASSWORD,
      '--operator',
    ]);
    expect(operator).toMatchObject({ email: 'root@example.com', role: 'operator', account_id: null });
    expect(JSON.stringify(operator)).not.toContain(ADMIN_PASSWORD);
    const admin = await vigilJson([
      'admin',
      'create',
      '--email',
      'alice@umbrella.example',
      '--password',
      ADMIN_PASSWORD,
      '--account',
      String(account.id),
    ]);
    expect(admin).toMatchObject({
      role: 'account_admin',
      account_id: account.id,
      created_at: expect.stringMatching(ISO),
    });
    const signedIn = await signIn(app, 'alice@umbrella.example');
    const res = await app.inject({ method: 'GET', url: '/admin/api/accounts', headers: signedIn.headers });
    expect(res.json()).toMatchObject({ count: 1, results: [{ id: account.id, name: 'Umbrella' }] });
  });

  it('refuses a short password, a taken address, an unknown account, and both or neither role flag', async () => {
    const account = await newAccount();
    const base = ['admin', 'create', '--email', `x${Date.now()}@example.com`];
    await expectFailure([...base, '--password', 'short', '--operator'], /at least 12 characters/);
    await expectFailure([...base, '--password', ADMIN_PASSWORD, '--account', '999999'], /Account not found/);
    await expectFailure([...base, '--password', ADMIN_PASSWORD], /exactly one of --operator or --account/);
    await expectFailure(
      [...base, '--password', ADMIN_PASSWORD, '--operator', '--account', String(account.id)],
      /exactly one of --operator or --account/,
    );
    await vigilJson([
      'admin',
      'create',
      '--email',
      'dup@example.com',
      '--password',
      ADMIN_PASSWORD,
      '--operator',
    ]);
    await expectFailure(
      ['admin', 'create', '--email', 'DUP@example.com', '--password', ADMIN_PASSWORD, '--operator'],
      /already exists/,
    );
  });

  it('prints a fresh one-time setup link', async () => {
    const printed = await vigilJson(['admin', 'setup-link', '--base-url', 'https://vigil.example.com']);
    expect(printed.url).toMatch(/^https:\/\/vigil\.example\.com\/admin\/setup\/[\w-]{43}$/);
    const token = printed.url.split('/').pop();
    const res = await app.inject({ method: 'GET', url: `/admin/api/invitations/${token}` });
    expect(res.json()).toMatchObject({ kind: 'setup', role: 'operator' });
  });
});

describe('the vigil command', () => {
  it('refuses an unknown command', async () => {
    await expectFailure(['frobnicate'], /unknown command/);
  });

  it('runs as a process: prints JSON and exits 0, or exits non-zero with a message on stderr', async () => {
    const ok = await runCli(['account', 'create', '--name', 'Spawned', '--json'], {
      DATABASE_URL: databaseUrl,
    });
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({
      name: 'Spawned',
      database: describeDatabase(databaseUrl),
    });

    const failed = await runCli(['key', 'list', '--account', '999999'], { DATABASE_URL: databaseUrl });
    expect(failed.code).not.toBe(0);
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toMatch(/Account not found/);
  });
});
