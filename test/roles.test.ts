import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { type AdminClient, anonymousClient, signIn, signInAs } from './helpers/admin.js';
import { buildTestApp } from './helpers/app.js';
import { coded } from './helpers/errors.js';
import { makeAccount, makeEmployee, makeGroup } from './helpers/factories.js';

/**
 * Roles and group scopes (issue 23, docs/roles.md), through the admin API only: what each role
 * may do, what a role limited to groups sees, and how owners change roles.
 */

let app: FastifyInstance;
let accountId: number;
let base: string;
let owner: AdminClient;
let sales: { id: number };
let support: { id: number };
const people: Record<string, number> = {};
const campaigns: Record<string, number> = {};

async function call(as: AdminClient, method: string, url: string, payload?: unknown) {
  return app.inject({
    method: method as 'GET',
    url: `${base}${url}`,
    headers: as.headers,
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
}

async function ok(as: AdminClient, method: string, url: string, payload?: unknown, status = 200) {
  const res = await call(as, method, url, payload);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
  return res.json();
}

const ids = (body: { results: { id: number }[] }) => body.results.map((r) => r.id).sort((a, b) => a - b);

beforeAll(async () => {
  ({ app } = await buildTestApp());
  accountId = (await makeAccount(app)).id;
  base = `/admin/api/accounts/${accountId}`;
  owner = await signInAs(app, { role: 'account_admin', accountId });
  sales = await makeGroup(app, accountId, 'Sales');
  support = await makeGroup(app, accountId, 'Support');
  for (const [name, group] of [
    ['ana', sales],
    ['bo', support],
    ['cy', null],
  ] as const) {
    people[name] = (await makeEmployee(app, accountId, { first_name: name, last_name: name })).id;
    if (group) await ok(owner, 'POST', `/groups/${group.id}/members`, { employee_ids: [people[name]] });
  }
  // Ana is in both groups' campaigns' reach only through Sales.
  campaigns.sales = (
    await ok(owner, 'POST', '/campaigns', { name: 'Sales training', group_ids: [sales.id] }, 201)
  ).id;
  campaigns.support = (
    await ok(owner, 'POST', '/campaigns', { name: 'Support training', group_ids: [support.id] }, 201)
  ).id;
  campaigns.both = (
    await ok(owner, 'POST', '/campaigns', { name: 'Everyone', group_ids: [sales.id, support.id] }, 201)
  ).id;
  campaigns.phishSupport = (
    await ok(owner, 'POST', '/phishing/campaigns', { name: 'Support phish', group_ids: [support.id] }, 201)
  ).id;
  campaigns.phishSales = (
    await ok(owner, 'POST', '/phishing/campaigns', { name: 'Sales phish', group_ids: [sales.id] }, 201)
  ).id;
});

describe('permissions of the built-in roles', () => {
  it('lets an auditor read everything and change nothing, with a 403 naming the permission', async () => {
    const auditor = await signInAs(app, { role: 'account_admin', accountId, accountRole: 'auditor' });
    await ok(auditor, 'GET', '/employees');
    await ok(auditor, 'GET', '/keys');
    const res = await call(auditor, 'POST', '/groups', { name: 'Nope' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      error: 'Auditor lacks the permission directory:write',
      status: 403,
      ...coded('role_lacks_permission'),
    });
    const groups = await ok(owner, 'GET', '/groups');
    expect(groups.results.map((g: { name: string }) => g.name)).not.toContain('Nope');
  });

  it('keeps a campaign manager to campaigns, templates and results', async () => {
    const manager = await signInAs(app, {
      role: 'account_admin',
      accountId,
      accountRole: 'campaign_manager',
    });
    await ok(manager, 'GET', '/campaigns');
    await ok(manager, 'GET', '/phishing/templates');
    for (const [method, url] of [
      ['GET', '/keys'],
      ['GET', '/webhooks/endpoints'],
      ['GET', '/reports'],
      ['GET', '/admins'],
      ['PATCH', '/settings'],
    ] as const) {
      const res = await call(manager, method, url, method === 'PATCH' ? { display_name: 'x' } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().code).toBe('role_lacks_permission');
    }
  });

  it('gives a triage analyst reported mail only, and the triage switch still applies', async () => {
    const analyst = await signInAs(app, { role: 'account_admin', accountId, accountRole: 'triage_analyst' });
    await ok(analyst, 'GET', '/reports');
    expect((await call(analyst, 'GET', '/employees')).statusCode).toBe(403);
    await ok(owner, 'PUT', `/admins/${analyst.user.id}/triage`, { can_triage: false });
    const res = await call(analyst, 'GET', '/reports');
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('Reading reported mail needs the triage permission');
  });

  it('tells the web interface the role, its permissions and the scope', async () => {
    const manager = await signInAs(app, {
      role: 'account_admin',
      accountId,
      accountRole: 'campaign_manager',
      groups: [sales.id],
    });
    const { user } = (
      await app.inject({ method: 'GET', url: '/admin/api/session', headers: manager.headers })
    ).json();
    expect(user).toMatchObject({
      account_role: 'campaign_manager',
      groups: [{ id: sales.id, name: 'Sales' }],
    });
    expect(user.permissions).toContain('training:write');
    expect(user.permissions).not.toContain('directory:write');
    const mine = (
      await app.inject({ method: 'GET', url: '/admin/api/session', headers: owner.headers })
    ).json();
    expect(mine.user).toMatchObject({ account_role: 'owner', groups: null });
  });
});

describe('a role limited to groups', () => {
  let manager: AdminClient;
  let admin: AdminClient;
  beforeAll(async () => {
    manager = await signInAs(app, {
      role: 'account_admin',
      accountId,
      accountRole: 'campaign_manager',
      groups: [sales.id],
    });
    admin = await signInAs(app, {
      role: 'account_admin',
      accountId,
      accountRole: 'administrator',
      groups: [sales.id],
    });
  });

  it('sees only its groups and their members, counted and paged by the database', async () => {
    expect(ids(await ok(manager, 'GET', '/groups'))).toEqual([sales.id]);
    const employees = await ok(manager, 'GET', '/employees?limit=1');
    expect(employees.count).toBe(1);
    expect(ids(employees)).toEqual([people.ana]);
    expect(ids(await ok(manager, 'GET', '/employees?search=bo'))).toEqual([]);
    const csv = (await call(manager, 'GET', '/employees/export.csv')).body;
    expect(csv).toContain('ana');
    expect(csv).not.toContain('bo@');
    expect(await ok(manager, 'GET', '/overview')).toMatchObject({ employees: 1, groups: 1, campaigns: 1 });
    expect(await ok(owner, 'GET', '/overview')).toMatchObject({ employees: 3, groups: 2, campaigns: 3 });
  });

  it('answers 404 for a group, person or campaign outside the scope, as for one that does not exist', async () => {
    for (const [url, code] of [
      [`/groups/${support.id}`, 'group_not_found'],
      [`/groups/${support.id}/members`, 'group_not_found'],
      [`/employees/${people.bo}`, 'employee_not_found'],
      [`/employees/${people.cy}`, 'employee_not_found'],
      [`/employees/${people.bo}/phishing`, 'employee_not_found'],
      [`/campaigns/${campaigns.support}`, 'campaign_not_found'],
      [`/campaigns/${campaigns.both}/enrollments`, 'campaign_not_found'],
      [`/phishing/campaigns/${campaigns.phishSupport}`, 'phishing_campaign_not_found'],
      [`/phishing/campaigns/${campaigns.phishSupport}/results/recipients`, 'phishing_campaign_not_found'],
    ] as const) {
      const res = await call(manager, 'GET', url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().code, url).toBe(code);
    }
    await ok(manager, 'GET', `/employees/${people.ana}`);
    await ok(manager, 'GET', `/campaigns/${campaigns.sales}`);
  });

  it('lists only the campaigns whose every target group is in scope', async () => {
    expect(ids(await ok(manager, 'GET', '/campaigns'))).toEqual([campaigns.sales]);
    expect(ids(await ok(manager, 'GET', '/phishing/campaigns'))).toEqual([campaigns.phishSales]);
  });

  it('refuses to target a group outside the scope, and to change or launch a campaign outside it', async () => {
    const res = await call(manager, 'POST', '/campaigns', {
      name: 'Sneaky',
      group_ids: [sales.id, support.id],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual({ group_ids: [`unknown groups: ${support.id}`] });
    const phish = await call(manager, 'POST', '/phishing/campaigns', {
      name: 'Sneaky',
      group_ids: [support.id],
    });
    expect(phish.statusCode).toBe(400);
    const patch = await call(manager, 'PATCH', `/campaigns/${campaigns.sales}`, { group_ids: [support.id] });
    expect(patch.statusCode).toBe(400);
    expect((await call(manager, 'POST', `/campaigns/${campaigns.support}/launch`)).statusCode).toBe(404);
    expect((await ok(owner, 'GET', `/campaigns/${campaigns.support}`)).status).toBe('draft');
  });

  it('refuses writes to people and groups outside the scope, and what would reach beyond it', async () => {
    expect((await call(admin, 'PATCH', `/employees/${people.bo}`, { first_name: 'X' })).statusCode).toBe(404);
    expect((await call(admin, 'DELETE', `/groups/${support.id}`)).statusCode).toBe(404);
    const create = await call(admin, 'POST', '/employees', {
      first_name: 'New',
      last_name: 'Person',
      email: 'new.person@example.com',
    });
    expect(create.statusCode).toBe(403);
    expect(create.json().code).toBe('role_lacks_permission');
    expect((await call(admin, 'POST', '/groups', { name: 'Mine' })).statusCode).toBe(403);
    await ok(admin, 'PATCH', `/employees/${people.ana}`, { first_name: 'ana' });
  });
});

describe('managing roles', () => {
  it('lets an owner set a role and scope, recorded in the audit log; nobody changes their own', async () => {
    const colleague = await signInAs(app, { role: 'account_admin', accountId, accountRole: 'administrator' });
    const changed = await ok(owner, 'PUT', `/admins/${colleague.user.id}/role`, {
      role: 'auditor',
      group_ids: [support.id],
    });
    expect(changed).toMatchObject({ account_role: 'auditor', groups: [{ id: support.id, name: 'Support' }] });
    const audit = await app.db
      .selectFrom('audit_log')
      .select(['action', 'changes', 'actor_label'])
      .where('account_id', '=', accountId)
      .where('action', '=', 'admin.role_changed')
      .execute();
    expect(audit.at(-1)?.actor_label).toBe(owner.email);
    expect(JSON.parse(String(audit.at(-1)?.changes))).toEqual({
      role: { from: 'administrator', to: 'auditor' },
      groups: { from: [], to: [support.id] },
    });
    // The change holds at once: the auditor now reads only Support.
    const again = await signIn(app, colleague.email);
    expect(ids(await ok(again, 'GET', '/groups'))).toEqual([support.id]);

    const self = await call(owner, 'PUT', `/admins/${owner.user.id}/role`, { role: 'auditor' });
    expect(self.statusCode).toBe(403);
    const raise = await call(again, 'PUT', `/admins/${again.user.id}/role`, { role: 'owner' });
    expect(raise.statusCode).toBe(403);
    const byAdmin = await signInAs(app, { role: 'account_admin', accountId, accountRole: 'administrator' });
    expect(
      (await call(byAdmin, 'PUT', `/admins/${colleague.user.id}/role`, { role: 'owner' })).statusCode,
    ).toBe(403);
  });

  it('keeps the last owner: neither demoted nor removed', async () => {
    const other = await makeAccount(app);
    const first = await signInAs(app, { role: 'account_admin', accountId: other.id });
    const operator = await signInAs(app, { role: 'operator' });
    const url = `/admin/api/accounts/${other.id}/admins/${first.user.id}`;
    const demote = await app.inject({
      method: 'PUT',
      url: `${url}/role`,
      headers: operator.headers,
      payload: { role: 'auditor' },
    });
    expect(demote.statusCode).toBe(409);
    expect(demote.json()).toEqual({
      error: 'An account keeps at least one enabled owner',
      status: 409,
      ...coded('last_owner'),
    });
    expect((await app.inject({ method: 'DELETE', url, headers: operator.headers })).statusCode).toBe(409);
    const second = await signInAs(app, { role: 'account_admin', accountId: other.id });
    const removed = await app.inject({ method: 'DELETE', url, headers: second.headers });
    expect(removed.statusCode).toBe(204);
  });

  it('refuses an owner limited to groups and groups of another account', async () => {
    const colleague = await signInAs(app, { role: 'account_admin', accountId, accountRole: 'administrator' });
    const scopedOwner = await call(owner, 'PUT', `/admins/${colleague.user.id}/role`, {
      role: 'owner',
      group_ids: [sales.id],
    });
    expect(scopedOwner.statusCode).toBe(400);
    const theirs = await makeGroup(app, (await makeAccount(app)).id);
    const foreign = await call(owner, 'PUT', `/admins/${colleague.user.id}/role`, {
      role: 'auditor',
      group_ids: [theirs.id],
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().details).toEqual({ group_ids: [`unknown groups: ${theirs.id}`] });
  });

  it('invites with a role and scope, which the invited administrator gets', async () => {
    const invited = await ok(
      owner,
      'POST',
      '/invitations',
      { email: 'scoped.manager@example.com', role: 'campaign_manager', group_ids: [sales.id] },
      201,
    );
    expect(invited).toMatchObject({ account_role: 'campaign_manager', group_ids: [sales.id] });
    const token = String(invited.url).split('/').at(-1);
    const accepted = await app.inject({
      method: 'POST',
      url: `/admin/api/invitations/${token}/accept`,
      headers: (await anonymousClient(app)).headers,
      payload: { password: 'correct horse battery staple' },
    });
    expect(accepted.statusCode, accepted.body).toBeLessThan(400);
    const manager = await signIn(app, 'scoped.manager@example.com');
    expect(manager.user).toMatchObject({ account_role: 'campaign_manager' });
    expect(ids(await ok(manager, 'GET', '/campaigns'))).toEqual([campaigns.sales]);
    const actions = await app.db
      .selectFrom('audit_log')
      .select('action')
      .where('account_id', '=', accountId)
      .where('action', '=', 'admin.invited')
      .execute();
    expect(actions.length).toBeGreaterThan(0);
  });
});
