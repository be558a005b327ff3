import { beforeAll, describe, expect, it } from 'vitest';
import { type AdminClient, signInAs } from '../../../../test/helpers/admin.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { coded } from '../../../../test/helpers/errors.js';
import { client, makeEmployee, makeKey } from '../../../../test/helpers/factories.js';
import {
  expectedFigures,
  insertPhishingCampaign,
  type PhishingFixture,
} from '../../../../test/helpers/phishing-fixtures.js';

// The results of a phishing campaign: the Customer API's reads and the admin API's results,
// checked against what the fixture wrote, with another account's data out of reach.

let t: TestApp;
let mine: { accountId: number; key: string; admin: AdminClient; fixture: PhishingFixture };
let theirs: { accountId: number; key: string; fixture: PhishingFixture };

beforeAll(async () => {
  t = await buildTestApp();
  const a = await makeKey(t.app);
  const b = await makeKey(t.app);
  mine = {
    ...a,
    admin: await signInAs(t.app, { role: 'account_admin', accountId: a.accountId }),
    fixture: await insertPhishingCampaign(t.app.db, a.accountId, { name: 'Mine' }),
  };
  theirs = { ...b, fixture: await insertPhishingCampaign(t.app.db, b.accountId, { name: 'Theirs' }) };
});

const api = () => client(t.app, mine.key);
const admin = (url: string) =>
  t.app.inject({
    method: 'GET',
    url: `/admin/api/accounts/${mine.accountId}${url}`,
    headers: mine.admin.headers,
  });
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const notFound = { error: 'Campaign not found', status: 404, ...coded('campaign_not_found') };

describe('Customer API: GET /customer/campaigns/phishing/', () => {
  it('lists the account’s campaigns with their window, templates and figures, never another account’s', async () => {
    const res = await api().get('/customer/campaigns/phishing/');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.count).toBe(1);
    const f = expectedFigures(mine.fixture.recipients);
    expect(body.results[0]).toMatchObject({
      id: mine.fixture.campaignId,
      name: 'Mine',
      status: 'running',
      group_ids: [...mine.fixture.groupIds].sort((x, y) => x - y),
      template_keys: mine.fixture.templates.map((x) => x.key),
      window: {
        start: iso(mine.fixture.launchedAt),
        weekdays: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
        hours: { start: 9, end: 17 },
        time_zone: 'Europe/Berlin',
      },
      launched_at: iso(mine.fixture.launchedAt),
      completed_at: null,
      recipients: f.recipients,
      delivered: f.delivered,
      opened: f.opened,
      clicked: f.clicked,
      submitted: f.submitted,
      reported: f.reported,
      phish_prone_percent: Math.round((10000 * f.phished) / f.delivered) / 100,
      report_rate: Math.round((10000 * f.reported) / f.delivered) / 10000,
    });
    expect(body.results[0].median_seconds_to_click).toBeGreaterThan(0);
    expect(body.results[0].median_seconds_to_report).toBeGreaterThan(0);
  });

  it('answers one campaign, and another account’s exactly as a nonexistent one', async () => {
    const one = await api().get(`/customer/campaigns/phishing/${mine.fixture.campaignId}/`);
    expect(one.statusCode).toBe(200);
    expect(one.json().id).toBe(mine.fixture.campaignId);
    const them = await api().get(`/customer/campaigns/phishing/${theirs.fixture.campaignId}/`);
    const none = await api().get('/customer/campaigns/phishing/987654321/');
    const text = await api().get('/customer/campaigns/phishing/abc/');
    for (const res of [them, none, text]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(notFound);
    }
  });

  it('needs campaigns:read', async () => {
    const { key } = await makeKey(t.app, { accountId: mine.accountId, grants: ['employees:rw'] });
    const res = await client(t.app, key).get('/customer/campaigns/phishing/');
    expect(res.statusCode).toBe(403);
  });
});

describe('Customer API: GET /customer/campaigns/phishing/{id}/results/', () => {
  it('lists each person’s result by employee id, as the fixture wrote it; a deleted employee’s email is null', async () => {
    const res = await api().get(`/customer/campaigns/phishing/${mine.fixture.campaignId}/results/`);
    expect(res.statusCode, res.body).toBe(200);
    const expected = [...mine.fixture.recipients]
      .sort((a, b) => a.employeeId - b.employeeId)
      .map((r) => ({
        employee_id: r.employeeId,
        email: r.email,
        template: r.templateKey,
        status: r.status,
        sent_at: iso(r.sent_at),
        opened_at: iso(r.opened_at),
        clicked_at: iso(r.clicked_at),
        submitted_at: iso(r.submitted_at),
        reported_at: iso(r.reported_at),
        training_assigned: r.training_assigned_at !== null,
        planned_at: iso(r.planned_at),
      }));
    expect(res.json()).toEqual({ count: expected.length, next: null, previous: null, results: expected });
    expect(res.json().results.some((r: { email: string | null }) => r.email === null)).toBe(true);
  });

  it('filters by status (reported: whoever reported) and by employee, and pages', async () => {
    const base = `/customer/campaigns/phishing/${mine.fixture.campaignId}/results/`;
    const clicked = await api().get(`${base}?status=clicked`);
    expect(
      clicked
        .json()
        .results.map((r: { employee_id: number }) => r.employee_id)
        .sort(),
    ).toEqual(
      mine.fixture.recipients
        .filter((r) => r.status === 'clicked')
        .map((r) => r.employeeId)
        .sort(),
    );
    const reported = await api().get(`${base}?status=reported`);
    expect(reported.json().count).toBe(mine.fixture.recipients.filter((r) => r.reported_at !== null).length);
    const one = mine.fixture.recipients[3];
    const byEmployee = await api().get(`${base}?employee_id=${one?.employeeId}`);
    expect(byEmployee.json().results).toHaveLength(1);
    expect(byEmployee.json().results[0].employee_id).toBe(one?.employeeId);
    // Their employee is not ours: nothing.
    const theirEmployee = theirs.fixture.recipients[0]?.employeeId;
    expect((await api().get(`${base}?employee_id=${theirEmployee}`)).json().count).toBe(0);
    expect((await api().get(`${base}?employee_id=99999999999999999999`)).json().count).toBe(0);
    const page2 = await api().get(`${base}?page=2&page_size=3`);
    expect(page2.json().results).toHaveLength(3);
    expect(page2.json().next).toContain('page=3');
    expect((await api().get(`${base}?page=99`)).statusCode).toBe(404);
  });

  it('refuses an unknown status or a bad employee_id with 400 before looking at the campaign', async () => {
    for (const query of ['status=bogus', 'employee_id=0', 'employee_id=abc']) {
      const res = await api().get(`/customer/campaigns/phishing/987654321/results/?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({ error: 'Validation failed', status: 400 });
    }
    const res = await api().get(
      `/customer/campaigns/phishing/${mine.fixture.campaignId}/results/?status=bogus`,
    );
    expect(res.json().details).toEqual({
      status: ['must be one of scheduled, sent, opened, clicked, submitted, failed, reported'],
    });
  });

  it('answers another account’s campaign as a nonexistent one', async () => {
    const them = await api().get(`/customer/campaigns/phishing/${theirs.fixture.campaignId}/results/`);
    expect(them.statusCode).toBe(404);
    expect(them.json()).toEqual(notFound);
  });
});

describe('admin API: results', () => {
  it('sums up figures, by group (with names) and by template (names from the snapshot), and activity', async () => {
    const res = await admin(`/phishing/campaigns/${mine.fixture.campaignId}/results`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const f = expectedFigures(mine.fixture.recipients);
    expect(body.all).toMatchObject({ ...f, failed: 1, training_assigned: 4 });
    expect(body.groups.map((g: { name: string }) => g.name).sort()).toEqual(
      [...mine.fixture.groupNames].sort(),
    );
    for (const g of body.groups) {
      const people = mine.fixture.recipients.filter((r) => r.groupIds.includes(Number(g.key)));
      expect(g).toMatchObject(expectedFigures(people));
    }
    expect(body.templates.map((x: { name: string }) => x.name).sort()).toEqual(
      mine.fixture.templates.map((x) => x.name).sort(),
    );
    for (const tpl of body.templates) {
      expect(tpl).toMatchObject(
        expectedFigures(mine.fixture.recipients.filter((r) => r.templateKey === tpl.key)),
      );
    }
    const sum = (k: string) =>
      body.activity.rows.reduce((s: number, r: Record<string, number>) => s + (r[k] ?? 0), 0);
    expect([sum('delivered'), sum('opened'), sum('clicked'), sum('reported')]).toEqual([
      f.delivered,
      f.opened,
      f.clicked,
      f.reported,
    ]);
    expect(body.activity.bucket).toBe('hour');
    const days = (await admin(`/phishing/campaigns/${mine.fixture.campaignId}/results?bucket=day`)).json();
    expect(days.activity.bucket).toBe('day');
    expect(days.activity.rows.reduce((s: number, r: { delivered: number }) => s + r.delivered, 0)).toBe(
      f.delivered,
    );
  });

  it('pages recipients with filters (status, search, group, template), never another account’s', async () => {
    const base = `/phishing/campaigns/${mine.fixture.campaignId}/results/recipients`;
    const all = (await admin(base)).json();
    expect(all.count).toBe(mine.fixture.recipients.length);
    const deleted = all.results.find((r: { employee_deleted: boolean }) => r.employee_deleted);
    expect(deleted.employee).toMatchObject({ first_name: 'Deleted employee', email: null });
    const g = mine.fixture.groupIds[1] as number;
    const inGroup = (await admin(`${base}?group_id=${g}`)).json();
    expect(inGroup.results.map((r: { id: number }) => r.id).sort()).toEqual(
      mine.fixture.recipients
        .filter((r) => r.groupIds.includes(g))
        .map((r) => r.id)
        .sort(),
    );
    expect(inGroup.count).toBe(mine.fixture.recipients.filter((r) => r.groupIds.includes(g)).length);
    const small = (await admin(`${base}?group_id=${g}&page_size=2`)).json();
    expect([small.count, small.results.length]).toEqual([inGroup.count, 2]);
    const key = mine.fixture.templates[0]?.key as string;
    const byTemplate = (await admin(`${base}?template=${encodeURIComponent(key)}`)).json();
    expect(byTemplate.count).toBe(mine.fixture.recipients.filter((r) => r.templateKey === key).length);
    const someone = mine.fixture.recipients[2];
    const found = (await admin(`${base}?q=${encodeURIComponent(someone?.email ?? '')}`)).json();
    expect(found.results.map((r: { id: number }) => r.id)).toEqual([someone?.id]);
    expect((await admin(`${base}?status=submitted`)).json().count).toBe(1);
    expect((await admin(`${base}?page=2&page_size=4`)).json().results).toHaveLength(4);
    const bad = await admin(`${base}?status=nope`);
    expect(bad.statusCode).toBe(400);
    expect((await admin(`${base}?group_id=x`)).statusCode).toBe(400);
    const them = await admin(`/phishing/campaigns/${theirs.fixture.campaignId}/results/recipients`);
    expect(them.statusCode).toBe(404);
    expect(them.json()).toEqual(notFound);
    expect((await admin(`/phishing/campaigns/${theirs.fixture.campaignId}/results`)).json()).toEqual(
      notFound,
    );
  });

  it('exports every recipient as CSV with formulas neutralised', async () => {
    const account = await makeKey(t.app);
    const adminB = await signInAs(t.app, { role: 'account_admin', accountId: account.accountId });
    const fx = await insertPhishingCampaign(t.app.db, account.accountId, {
      recipients: [
        {
          status: 'clicked',
          first_name: '=HYPERLINK("http://x")',
          last_name: '+1',
          email: 'eve@example.com',
        },
        { status: 'sent', first_name: '@SUM(A1)', last_name: '-2' },
        { status: 'opened', deleted: true },
      ],
    });
    const res = await t.app.inject({
      method: 'GET',
      url: `/admin/api/accounts/${account.accountId}/phishing/campaigns/${fx.campaignId}/results/recipients.csv`,
      headers: adminB.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    // UTF-8's byte-order mark first, so that Excel reads names as written.
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe(
      'employee_id,first_name,last_name,email,template,group_ids,status,planned_at,sent_at,opened_at,clicked_at,submitted_at,reported_at,delivery_failed_at,training_assigned_at',
    );
    expect(lines).toHaveLength(4);
    expect(res.body).toContain(`"'=HYPERLINK(""http://x"")",'+1,eve@example.com`);
    expect(res.body).toContain("'@SUM(A1),'-2");
    expect(res.body).toContain('Deleted employee');
    const first = fx.recipients[0];
    expect(lines[1]).toContain(`${first?.employeeId},`);
    expect(lines[1]).toContain(new Date(first?.clicked_at ?? 0).toISOString());
    const them = await t.app.inject({
      method: 'GET',
      url: `/admin/api/accounts/${account.accountId}/phishing/campaigns/${mine.fixture.campaignId}/results/recipients.csv`,
      headers: adminB.headers,
    });
    expect(them.statusCode).toBe(404);
  });

  it('shows a person’s events with their classification and reason', async () => {
    const r = mine.fixture.recipients[4];
    const res = await admin(`/phishing/campaigns/${mine.fixture.campaignId}/recipients/${r?.id}/events`);
    expect(res.statusCode, res.body).toBe(200);
    const kinds = res
      .json()
      .events.map((e: { kind: string; classification: string }) => `${e.kind}:${e.classification}`);
    expect(kinds).toEqual([
      'sent:human',
      'opened:automated',
      'opened:human',
      'clicked:human',
      'training_assigned:human',
      'submitted:human',
    ]);
    expect(res.json().events[1].reason_text).toContain('seconds of delivery');
    const theirRecipient = theirs.fixture.recipients[0]?.id;
    const them = await admin(
      `/phishing/campaigns/${mine.fixture.campaignId}/recipients/${theirRecipient}/events`,
    );
    expect(them.statusCode).toBe(404);
  });
});

describe('admin API: an employee’s simulation history', () => {
  it('lists their simulations newest first; another account’s employee is a 404', async () => {
    const person = mine.fixture.recipients[3];
    const res = await admin(`/employees/${person?.employeeId}/phishing`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      count: 1,
      results: [
        {
          recipient_id: person?.id,
          campaign: { id: mine.fixture.campaignId, name: 'Mine' },
          status: 'clicked',
        },
      ],
    });
    const nobody = await makeEmployee(t.app, mine.accountId);
    expect((await admin(`/employees/${nobody.id}/phishing`)).json()).toEqual({ count: 0, results: [] });
    const them = await admin(`/employees/${theirs.fixture.recipients[0]?.employeeId}/phishing`);
    expect(them.statusCode).toBe(404);
    expect(them.json()).toEqual({ error: 'Employee not found', status: 404, ...coded('employee_not_found') });
  });
});
