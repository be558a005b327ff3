// `vigil key …`: API keys made, listed, revoked and re-budgeted by the operator command.
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helpers/app.js';
import { ISO, vigilOn } from '../../test/helpers/cli.js';
import { client } from '../../test/helpers/factories.js';
import { hashApiKey } from '../core/auth/api-key-secret.js';
import { describeDatabase } from '../core/db/database.js';

/** The real app on the database the commands work on: what the CLI makes must work over the API. */
let app: FastifyInstance;
let databaseUrl: string;

beforeAll(async () => {
  ({ app, databaseUrl } = await buildTestApp());
});

const { vigil, databaseLine, vigilJson, expectFailure, newAccount, newKey } = vigilOn(() => databaseUrl);

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
