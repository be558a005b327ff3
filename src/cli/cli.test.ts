import type { FastifyInstance } from 'fastify';
import { generate } from 'otplib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, adminSender, signIn } from '../../test/helpers/admin.js';
import { buildTestApp } from '../../test/helpers/app.js';
import { ISO, vigilOn } from '../../test/helpers/cli.js';
import { createTestDatabase } from '../../test/helpers/database.js';
import { client } from '../../test/helpers/factories.js';
import { runCli } from '../../test/helpers/server-process.js';
import { describeDatabase } from '../core/db/database.js';

/** The real app on the database the commands work on: what the CLI makes must work over the API. */
let app: FastifyInstance;
let databaseUrl: string;

beforeAll(async () => {
  ({ app, databaseUrl } = await buildTestApp());
});

const { vigil, databaseLine, vigilJson, expectFailure, newAccount, newKey } = vigilOn(() => databaseUrl);

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

  it('switches SSO only off for an account whose identity provider is down, recorded as the CLI', async () => {
    const account = await newAccount();
    await app.db
      .insertInto('account_security')
      .values({
        account_id: account.id,
        require_mfa: 1,
        sso_only: 1,
        default_role: 'auditor',
        audit_retention_days: null,
        updated_at: 1,
      })
      .execute();
    expect(await vigilJson(['account', 'sso-only-off', '--account', String(account.id)])).toEqual({
      account_id: account.id,
      sso_only: false,
      require_mfa: true,
    });
    const row = await app.db
      .selectFrom('account_security')
      .select(['sso_only', 'require_mfa', 'default_role'])
      .where('account_id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ sso_only: 0, require_mfa: 1, default_role: 'auditor' });
    const audit = await app.db
      .selectFrom('audit_log')
      .select(['action', 'actor_kind', 'changes'])
      .where('account_id', '=', account.id)
      .execute();
    expect(audit).toEqual([
      {
        action: 'security_settings.updated',
        actor_kind: 'cli',
        changes: JSON.stringify({ sso_only: { from: true, to: false } }),
      },
    ]);

    // Again, in words: nothing left to change, nothing recorded.
    const human = await vigil(['account', 'sso-only-off', '--account', String(account.id)]);
    expect(human.stdout).toBe(
      `account ${account.id}: SSO only is off; its administrators may sign in with their password and a second step\n`,
    );
    await expectFailure(['account', 'sso-only-off', '--account', '999999999'], /Account not found/);
    await expectFailure(['account', 'sso-only-off'], /--account/);
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

  it('disables an account administrator (signed out, refused at sign-in) and enables them again, recorded as the CLI', async () => {
    const account = await newAccount();
    const email = `off${Date.now()}@example.com`;
    // Another owner first: an account keeps an enabled owner.
    await vigilJson([
      'admin',
      'create',
      '--email',
      `on${email}`,
      '--password',
      ADMIN_PASSWORD,
      '--account',
      String(account.id),
    ]);
    await vigilJson([
      'admin',
      'create',
      '--email',
      email,
      '--password',
      ADMIN_PASSWORD,
      '--account',
      String(account.id),
    ]);
    const session = await signIn(app, email);
    const disabled = await vigilJson(['admin', 'disable', '--email', email.toUpperCase()]);
    expect(disabled).toMatchObject({ email, disabled_at: expect.stringMatching(ISO) });
    const after = await app.inject({ method: 'GET', url: '/admin/api/session', headers: session.headers });
    expect(after.json().user).toBeNull();
    await expect(signIn(app, email)).rejects.toThrow(/admin_disabled/);
    expect(await vigilJson(['admin', 'enable', '--email', email])).toMatchObject({ disabled_at: null });
    expect((await signIn(app, email)).email).toBe(email);
    const audit = await app.db
      .selectFrom('audit_log')
      .select(['action', 'actor_kind'])
      .where('account_id', '=', account.id)
      .where('action', 'in', ['admin.disabled', 'admin.enabled'])
      .orderBy('seq')
      .execute();
    expect(audit).toEqual([
      { action: 'admin.disabled', actor_kind: 'cli' },
      { action: 'admin.enabled', actor_kind: 'cli' },
    ]);
    await expectFailure(
      ['admin', 'disable', '--email', 'nobody@example.com'],
      /Administrator not found|admin_not_found/,
    );
  });

  it('resets an administrator’s factors (app, passkey, recovery codes), ends their sessions, recorded as the CLI', async () => {
    const account = await newAccount();
    const send = adminSender(app);
    const stamp = Date.now();
    const owner = `owner${stamp}@example.com`;
    const email = `lost${stamp}@example.com`;
    for (const address of [owner, email]) {
      await vigilJson([
        'admin',
        'create',
        '--email',
        address,
        '--password',
        ADMIN_PASSWORD,
        '--account',
        String(account.id),
      ]);
    }
    // They enrol an authenticator app (its first code computed as the app would) and a passkey.
    const full = await signIn(app, email);
    const started = (await send(full, 'POST', '/mfa/totp')).json();
    const confirmed = await send(full, 'POST', '/mfa/totp/confirm', {
      factor_id: started.factor_id,
      code: await generate({ secret: started.secret }),
      name: 'Phone',
    });
    expect(confirmed.json().recovery_codes).toHaveLength(10);
    const me = (await send(full, 'GET', '/session')).json().user;
    await app.db
      .insertInto('admin_mfa_factors')
      .values({
        admin_id: me.id,
        account_id: account.id,
        kind: 'passkey',
        name: 'Key',
        credential_id: 'Y3JlZGVudGlhbA',
        public_key: 'cHVibGljLWtleQ',
        counter: 0,
        created_at: stamp,
        confirmed_at: stamp,
      })
      .execute();
    const required = await send(await signIn(app, owner), 'PUT', `/accounts/${account.id}/security/mfa`, {
      require_mfa: true,
    });
    expect(required.statusCode).toBe(200);
    // A second session, waiting for its second step.
    const waiting = await signIn(app, email);
    expect((await send(waiting, 'GET', '/session')).json().mfa_pending).toBe('verify');

    const reset = await vigilJson([
      'admin',
      'reset-mfa',
      '--email',
      email.toUpperCase(),
      '--account',
      String(account.id),
    ]);
    expect(reset).toEqual({
      id: me.id,
      email,
      account_id: account.id,
      removed: { totp: 1, passkeys: 1, recovery_codes: 10 },
      sessions_ended: 2,
      must_enrol: true,
    });
    for (const session of [full, waiting]) {
      expect((await send(session, 'GET', '/session')).json().user).toBeNull();
    }
    for (const table of ['admin_mfa_factors', 'admin_recovery_codes'] as const) {
      expect(
        await app.db.selectFrom(table).select('admin_id').where('admin_id', '=', me.id).execute(),
      ).toEqual([]);
    }
    // The password alone leads to enrolment now, MFA being required in the account.
    const again = await signIn(app, email);
    expect((await send(again, 'GET', '/session')).json()).toMatchObject({ mfa_pending: 'enrol' });
    const audit = await app.db
      .selectFrom('audit_log')
      .select(['actor_kind', 'object_label', 'changes'])
      .where('account_id', '=', account.id)
      .where('action', '=', 'mfa.reset')
      .execute();
    expect(audit).toEqual([{ actor_kind: 'cli', object_label: email, changes: expect.any(String) }]);
    expect(JSON.parse(audit[0]?.changes as string)).toEqual({
      factors: { from: 2, to: 0 },
      recovery_codes: { from: 10, to: 0 },
      sessions_ended: { from: 2, to: 0 },
    });

    // In words, without --json: what it did and what comes next.
    const human = await vigil(['admin', 'reset-mfa', '--email', email]);
    expect(human.code).toBe(0);
    expect(human.stdout).toBe(
      [
        `reset the second factors of administrator ${me.id} <${email}>`,
        '  removed 0 authenticator apps, 0 passkeys, 0 unused recovery codes',
        '  ended 1 session',
        '  they sign in with their password and must add a new factor before anything else',
        '',
      ].join('\n'),
    );

    // An operator's factors too (the service's own chain), and nobody's outside the account named.
    const operator = `ops${stamp}@example.com`;
    await vigilJson(['admin', 'create', '--email', operator, '--password', ADMIN_PASSWORD, '--operator']);
    expect(await vigilJson(['admin', 'reset-mfa', '--email', operator])).toMatchObject({
      account_id: null,
      removed: { totp: 0, passkeys: 0, recovery_codes: 0 },
      must_enrol: false,
    });
    const other = await newAccount();
    await expectFailure(
      ['admin', 'reset-mfa', '--email', email, '--account', String(other.id)],
      /Administrator not found|admin_not_found/,
    );
    await expectFailure(
      ['admin', 'reset-mfa', '--email', operator, '--account', String(account.id)],
      /not found/,
    );
    await expectFailure(['admin', 'reset-mfa', '--email', 'nobody@example.com'], /not found/);
    await expectFailure(['admin', 'reset-mfa', '--email', email, '--account', 'x'], /--account must be/);
    await expectFailure(['admin', 'reset-mfa'], /--email/);
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
