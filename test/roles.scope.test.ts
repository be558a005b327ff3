import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkDeclaredPermission } from '../src/admin/api-routes.js';
import { type AdminClient, signInAs } from './helpers/admin.js';
import { buildTestApp } from './helpers/app.js';
import { makeAccount, makeEmployee, makeGroup, makeKey } from './helpers/factories.js';
import { insertPhishingCampaign } from './helpers/phishing-fixtures.js';

/**
 * What a role limited to groups sees of results, mail and reports (issue 23, docs/roles.md): the
 * people of its groups only, also in a campaign launched before someone left them; and what acts
 * on the whole account, refused. Through the admin API, on SQLite and PostgreSQL alike.
 */

let app: FastifyInstance;
let accountId: number;
let base: string;
let owner: AdminClient;
let manager: AdminClient;
let sales: { id: number };
const people: Record<'ana' | 'dee' | 'bo', { id: number; email: string }> = {} as never;
let training: number;
let phishing: { campaignId: number; recipients: { id: number; employeeId: number }[] };

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

const employeeIds = (rows: { employee: { id: number } }[]) => rows.map((r) => r.employee.id).sort();

beforeAll(async () => {
  ({ app } = await buildTestApp());
  accountId = (await makeAccount(app)).id;
  base = `/admin/api/accounts/${accountId}`;
  owner = await signInAs(app, { role: 'account_admin', accountId });
  sales = await makeGroup(app, accountId, 'Sales');
  const support = await makeGroup(app, accountId, 'Support');
  for (const [name, group] of [
    ['ana', sales],
    ['dee', sales],
    ['bo', support],
  ] as const) {
    const e = await makeEmployee(app, accountId, { first_name: name, last_name: name });
    people[name] = { id: e.id, email: e.email };
    await ok(owner, 'POST', `/groups/${group.id}/members`, { employee_ids: [e.id] });
  }
  // Launched to Sales (Ana and Dee), then Dee moves out of Sales: the campaign keeps her.
  training = (
    await ok(
      owner,
      'POST',
      '/campaigns',
      {
        name: 'Sales training',
        group_ids: [sales.id],
        course_keys: ['phishing'],
        due_date: new Date(Date.now() + 14 * 86_400_000).toISOString(),
      },
      201,
    )
  ).id;
  await ok(owner, 'POST', `/campaigns/${training}/launch`);
  const fixture = await insertPhishingCampaign(app.db, accountId, {
    name: 'Sales phish',
    groupNames: ['Sales phish targets'],
    recipients: [
      { status: 'clicked', first_name: 'Eve', last_name: 'Eve' },
      { status: 'sent', first_name: 'Fay', last_name: 'Fay' },
    ],
  });
  phishing = fixture;
  const phishGroup = fixture.groupIds[0] as number;
  manager = await signInAs(app, {
    role: 'account_admin',
    accountId,
    accountRole: 'campaign_manager',
    groups: [sales.id, phishGroup],
  });
  await ok(owner, 'POST', `/groups/${sales.id}/members/remove`, { employee_ids: [people.dee.id] });
  const fay = fixture.recipients[1]?.employeeId as number;
  await ok(owner, 'POST', `/groups/${phishGroup}/members/remove`, { employee_ids: [fay] });
});

describe('training results of a role limited to groups', () => {
  it('leaves out a person removed from the groups after the launch, in the list, its count and the CSV', async () => {
    const theirs = await ok(manager, 'GET', `/campaigns/${training}/enrollments`);
    expect(theirs.count).toBe(1);
    expect(employeeIds(theirs.results)).toEqual([people.ana.id]);
    const mine = await ok(owner, 'GET', `/campaigns/${training}/enrollments`);
    expect(mine.count).toBe(2);
    expect(employeeIds(mine.results)).toEqual([people.ana.id, people.dee.id].sort());

    const csv = (await call(manager, 'GET', `/campaigns/${training}/enrollments.csv`)).body;
    expect(csv).toContain(people.ana.email);
    expect(csv).not.toContain(people.dee.email);
    expect((await call(owner, 'GET', `/campaigns/${training}/enrollments.csv`)).body).toContain(
      people.dee.email,
    );
  });

  it('counts the figures over the people it may see, and says so', async () => {
    expect(await ok(manager, 'GET', `/campaigns/${training}/progress`)).toMatchObject({
      counts: { enrolled: 1 },
      covers: 'scope',
    });
    expect(await ok(owner, 'GET', `/campaigns/${training}/progress`)).toMatchObject({
      counts: { enrolled: 2 },
      covers: 'campaign',
    });
    expect(await ok(manager, 'GET', `/campaigns/${training}`)).toMatchObject({ enrolled_count: 1 });
    expect((await ok(manager, 'GET', '/campaigns')).results).toEqual([
      expect.objectContaining({ id: training, enrolled_count: 1 }),
    ]);
    expect(await ok(owner, 'GET', `/campaigns/${training}`)).toMatchObject({ enrolled_count: 2 });
  });

  it('answers 404 for the removed person’s enrollment, as for one that does not exist', async () => {
    const dee = (await ok(owner, 'GET', `/campaigns/${training}/enrollments`)).results.find(
      (r: { employee: { id: number } }) => r.employee.id === people.dee.id,
    );
    const res = await call(manager, 'POST', `/campaigns/${training}/enrollments/${dee.id}/resend`);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('enrollment_not_found');
  });
});

describe('phishing results of a role limited to groups', () => {
  it('leaves out a person removed from the groups after the launch, in the list, the CSV and the events', async () => {
    const [eve, fay] = phishing.recipients as [
      { id: number; employeeId: number },
      { id: number; employeeId: number },
    ];
    const url = `/phishing/campaigns/${phishing.campaignId}/results/recipients`;
    const theirs = await ok(manager, 'GET', url);
    expect(theirs.count).toBe(1);
    expect(theirs.results.map((r: { id: number }) => r.id)).toEqual([eve.id]);
    expect((await ok(owner, 'GET', url)).count).toBe(2);

    const csv = (await call(manager, 'GET', `${url}.csv`)).body;
    expect(csv).toContain('Eve');
    expect(csv).not.toContain('Fay');
    expect((await call(owner, 'GET', `${url}.csv`)).body).toContain('Fay');

    const events = `/phishing/campaigns/${phishing.campaignId}/recipients/${fay.id}/events`;
    const res = await call(manager, 'GET', events);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('phishing_recipient_not_found');
    await ok(owner, 'GET', events);
    await ok(manager, 'GET', `/phishing/campaigns/${phishing.campaignId}/recipients/${eve.id}/events`);

    // Reclassifying one of the removed person's events: as for an event that does not exist.
    const event = await app.db
      .selectFrom('phishing_events')
      .select('id')
      .where('recipient_id', '=', fay.id)
      .executeTakeFirstOrThrow();
    const reclassify = await call(
      manager,
      'POST',
      `/phishing/campaigns/${phishing.campaignId}/events/${event.id}/reclassify`,
      { classification: 'automated', reason: 'a scanner' },
    );
    expect(reclassify.statusCode).toBe(404);
    expect(reclassify.json().code).toBe('phishing_event_not_found');
  });

  it('labels the kept figures as the whole campaign’s', async () => {
    const summary = await ok(manager, 'GET', `/phishing/campaigns/${phishing.campaignId}/results`);
    expect(summary.covers).toBe('campaign');
    expect(summary.all.recipients).toBe(2);
  });
});

describe('the outbox of a role limited to groups', () => {
  it('lists only messages to people of its groups, with counts to match', async () => {
    const theirs = await ok(manager, 'GET', '/messages');
    expect(theirs.count).toBe(1);
    expect(
      theirs.results.map((m: { to: { employee_id: number } | null; employee?: { id: number } }) => m),
    ).toHaveLength(1);
    expect(JSON.stringify(theirs.results)).toContain(people.ana.email);
    expect(JSON.stringify(theirs.results)).not.toContain(people.dee.email);
    const mine = await ok(owner, 'GET', '/messages');
    expect(mine.count).toBe(2);
    const summary = await ok(manager, 'GET', '/messages/summary');
    expect(Object.values(summary.counts as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(1);

    const dee = mine.results.find((m: unknown) => JSON.stringify(m).includes(people.dee.email));
    const res = await call(manager, 'GET', `/messages/${dee.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('message_not_found');
    await ok(owner, 'GET', `/messages/${dee.id}`);
  });
});

describe('reported mail for a triage analyst limited to groups', () => {
  let analyst: AdminClient;
  const reports: Record<'both' | 'outside', number> = { both: 0, outside: 0 };
  beforeAll(async () => {
    const { key } = await makeKey(app, { accountId, grants: ['reports:w'] });
    const report = async (reporter: string, subject: string) => {
      const eml = [
        'From: IT <it@evil.example>',
        'To: staff@example.com',
        `Subject: ${subject}`,
        '',
        'Log in',
      ].join('\r\n');
      const res = await app.inject({
        method: 'POST',
        url: '/api/api_gateway/customer/reports/',
        headers: { apikey: key },
        payload: { reporter, eml: Buffer.from(eml).toString('base64') },
      });
      expect(res.statusCode).toBe(202);
      return (res.json() as { report_id: number }).report_id;
    };
    reports.both = await report(people.ana.email, 'Password expires');
    await report(people.bo.email, 'Password expires');
    reports.outside = await report(people.bo.email, 'Invoice overdue');
    analyst = await signInAs(app, {
      role: 'account_admin',
      accountId,
      accountRole: 'triage_analyst',
      groups: [sales.id],
    });
  });

  it('lists the reports one of its people made, with those reporters and the others as a count', async () => {
    const theirs = await ok(analyst, 'GET', '/reports');
    expect(theirs.count).toBe(1);
    expect(theirs.results).toMatchObject([
      {
        id: reports.both,
        reporter_count: 2,
        reporters: [{ address: people.ana.email }],
        reporters_outside_scope: 1,
      },
    ]);
    expect(JSON.stringify(theirs)).not.toContain(people.bo.email);
    const mine = await ok(owner, 'GET', '/reports');
    expect(mine.count).toBe(2);
    expect(mine.results.find((r: { id: number }) => r.id === reports.both)).toMatchObject({
      reporters_outside_scope: 0,
    });
  });

  it('judges a report it sees, and answers 404 for one it does not', async () => {
    const judged = await ok(analyst, 'POST', `/reports/${reports.both}/verdict`, { verdict: 'malicious' });
    expect(judged).toMatchObject({ verdict: 'malicious', reporters_outside_scope: 1 });
    expect(JSON.stringify(judged)).not.toContain(people.bo.email);
    for (const [method, url] of [
      ['GET', `/reports/${reports.outside}`],
      ['POST', `/reports/${reports.outside}/verdict`],
    ] as const) {
      const res = await call(analyst, method, url, method === 'POST' ? { verdict: 'safe' } : undefined);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().code).toBe('report_not_found');
    }
    expect((await ok(owner, 'GET', `/reports/${reports.outside}`)).verdict).toBeNull();
  });

  it('refuses what acts on every report: settings and rules', async () => {
    const res = await call(analyst, 'PUT', '/reporting/settings', { retention_days: 30 });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('scope_too_narrow');
  });
});

describe('what acts on the whole account', () => {
  it('is refused to a role limited to groups whatever its permissions, and allowed without a scope', async () => {
    const scopedAdmin = await signInAs(app, {
      role: 'account_admin',
      accountId,
      accountRole: 'administrator',
      groups: [sales.id],
    });
    const everyGroup = await signInAs(app, {
      role: 'account_admin',
      accountId,
      accountRole: 'administrator',
    });
    for (const [method, url, payload] of [
      ['GET', '/keys', undefined],
      ['POST', '/keys', { name: 'Escape', permissions: ['employees:read'], expires_at: null }],
      ['GET', '/webhooks/endpoints', undefined],
      ['POST', '/webhooks/endpoints', { url: 'https://hooks.example.com/x', events: ['*'] }],
      ['GET', '/scim-tokens', undefined],
      ['POST', '/scim-tokens', { name: 'Escape' }],
      ['PATCH', '/settings', { display_name: 'Renamed' }],
      ['GET', '/audit-log', undefined],
      ['PUT', '/phishing/settings', {}],
    ] as const) {
      const res = await call(scopedAdmin, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json(), `${method} ${url}`).toMatchObject({ status: 403, code: 'scope_too_narrow' });
    }
    expect((await ok(owner, 'GET', '/keys')).results).toEqual([
      expect.objectContaining({ permissions: ['reports:write'] }),
    ]);
    await ok(everyGroup, 'GET', '/keys');
    await ok(everyGroup, 'GET', '/webhooks/endpoints');
    await ok(scopedAdmin, 'GET', '/employees');
  });
});

describe('the boot check of adminScope', () => {
  const route = (url: string, config: Record<string, unknown>) =>
    ({ method: 'PUT', url, config, handler: () => undefined }) as never;
  it("accepts 'account' on an account's route, and refuses it elsewhere or another value", () => {
    const at = '/admin/api/accounts/:accountId/reporting/settings';
    expect(() =>
      checkDeclaredPermission(route(at, { adminPermission: 'reports:write', adminScope: 'account' })),
    ).not.toThrow();
    expect(() =>
      checkDeclaredPermission(route(at, { adminPermission: 'reports:write', adminScope: 'groups' })),
    ).toThrow("adminScope may only be 'account'");
    expect(() =>
      checkDeclaredPermission(
        route('/admin/api/session/password', { adminPermission: 'signed-in', adminScope: 'account' }),
      ),
    ).toThrow("adminScope may only be 'account'");
  });
});
