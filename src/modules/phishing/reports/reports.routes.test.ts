import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { coded } from '../../../../test/helpers/errors.js';
import { client, makeKey } from '../../../../test/helpers/factories.js';
import { BROWSER, figuresOf, seedPhishingCampaign } from '../../../../test/helpers/phishing.js';
import { phishBaseUrl } from '../../../core/http/links.js';
import { newSimulationToken } from '../simulation/simulation.links.model.js';

let t: TestApp;
beforeAll(async () => {
  // What a report answers, not how long reading may take (the reader's tests hold the deadline):
  // on a machine busy enough to starve the reading threads (they run at a lower priority, as on a
  // CI machine running several suites), the default 5 s refused a 9 MiB message as too slow.
  t = await buildTestApp({ REPORT_READ_TIMEOUT_MS: '60000' });
});

const URL = '/customer/campaigns/phishing/reports/';

function postMessage(key: string, message: string | Buffer) {
  return t.app.inject({
    method: 'POST',
    url: `/api/api_gateway${URL}`,
    headers: { apikey: key, 'content-type': 'message/rfc822' },
    payload: message,
  });
}

function email(headers: string, body: string) {
  return [
    'From: Someone <someone@example.net>',
    'To: ada@example.com',
    'Subject: Action required',
    'Message-ID: <abc@example.net>',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    headers,
    '',
    body,
    '',
  ]
    .filter((l) => l !== null)
    .join('\r\n');
}

describe('POST /customer/campaigns/phishing/reports/', () => {
  it('a token marks the simulation reported once, first time kept, after a click too; answers 202 with the result', async () => {
    const { key, accountId } = await makeKey(t.app);
    const c = await seedPhishingCampaign(t.app, accountId, { landing: 'teach_on_click' });
    const [a] = c.people;
    await t.app.inject({
      method: 'GET',
      url: `/v/${a!.token}`,
      headers: { 'user-agent': BROWSER },
      remoteAddress: '203.0.113.90',
    });
    const api = client(t.app, key);
    const first = await api.post(URL, { token: a!.token });
    expect(first.statusCode).toBe(202);
    const body = first.json();
    expect(body).toMatchObject({
      employee_id: a!.employee.id,
      email: a!.employee.email,
      template: c.templateKey,
      status: 'clicked',
      submitted_at: null,
      training_assigned: false,
    });
    expect(body.reported_at).toEqual(expect.any(String));
    expect(body.clicked_at).toEqual(expect.any(String));
    const again = await api.post(URL, { token: ` ${a!.token} ` });
    expect(again.statusCode).toBe(202);
    expect(again.json().reported_at).toBe(body.reported_at);
    // Of the three people delivered, the one who clicked then reported is no miss, and counts apart.
    expect(await figuresOf(t.app, c.campaignId)).toMatchObject({
      reported: 1,
      clicked: 1,
      reported_after_click: 1,
      missed: 2,
    });
    const api2 = client(t.app, key);
    const figures = (await api2.get(`/customer/campaigns/phishing/${c.campaignId}/`)).json();
    expect(figures).toMatchObject({ reported_after_click: 1, missed: 2, miss_rate: 0.6667 });
    const events = await t.app.db
      .selectFrom('phishing_events')
      .select(['kind', 'reason'])
      .where('recipient_id', '=', a!.id)
      .where('kind', '=', 'reported')
      .execute();
    expect(events).toEqual([
      { kind: 'reported', reason: 'report_api' },
      { kind: 'reported', reason: 'report_api' },
    ]);
  });

  it('another account’s token and an unknown one are the same 404; a bad body is a 400; order 401 → 403', async () => {
    const mine = await makeKey(t.app);
    const theirs = await makeKey(t.app);
    const c = await seedPhishingCampaign(t.app, theirs.accountId);
    const api = client(t.app, mine.key);
    const other = await api.post(URL, { token: c.people[0]!.token });
    const unknown = await api.post(URL, { token: newSimulationToken() });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ ...unknown.json(), request_id: other.json().request_id });
    expect(other.json()).toMatchObject({
      error: 'Simulation not found',
      status: 404,
      ...coded('simulation_not_found'),
    });
    expect((await figuresOf(t.app, c.campaignId)).reported).toBe(0);
    const bad = await api.post(URL, { token: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual({ token: [expect.stringContaining('simulation token')] });
    expect((await api.post(URL, {})).json().details).toEqual({ token: ['is required'] });
    expect((await api.post(URL, '{"token":')).statusCode).toBe(400);
    const noKey = await t.app.inject({
      method: 'POST',
      url: `/api/api_gateway${URL}`,
      payload: { token: 'x' },
    });
    expect(noKey.statusCode).toBe(401);
    // Reporting is its own access point: even a key that may change campaigns cannot report.
    const campaignsOnly = await makeKey(t.app, { grants: ['campaigns:rw'] });
    const forbidden = await client(t.app, campaignsOnly.key).post(URL, { token: 'nope' });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual({ error: 'API key lacks write permission on reports', status: 403 });
    const text = await api.request('POST', URL, 'hello', { 'content-type': 'text/plain' });
    expect(text.statusCode).toBe(415);
  });

  it('a report button’s key (reports:w) reports, and reads or changes nothing else', async () => {
    const { accountId } = await makeKey(t.app);
    const c = await seedPhishingCampaign(t.app, accountId);
    const button = client(t.app, (await makeKey(t.app, { accountId, grants: ['reports:w'] })).key);
    const res = await button.post(URL, { token: c.people[0]?.token });
    expect(res.statusCode, res.body).toBe(202);
    for (const [method, path, point, right] of [
      ['GET', '/customer/campaigns/phishing/', 'campaigns', 'read'],
      ['GET', '/customer/employees/', 'employees', 'read'],
      ['POST', '/customer/groups/', 'groups', 'write'],
    ] as const) {
      const refused = await button.request(method, path, method === 'POST' ? { name: 'x' } : undefined);
      expect(refused.json(), path).toEqual({
        error: `API key lacks ${right} permission on ${point}`,
        status: 403,
      });
    }
  });

  it('a reported message is matched by its header, or by a Safe Links–wrapped link', async () => {
    const { key, accountId } = await makeKey(t.app);
    const c = await seedPhishingCampaign(t.app, accountId);
    const [a, b] = c.people;
    const byHeader = await postMessage(key, email(`X-Vigil-Simulation: ${a!.token}`, 'Please sign in.'));
    expect(byHeader.statusCode).toBe(202);
    expect(byHeader.json().employee_id).toBe(a!.employee.id);
    const link = `${phishBaseUrl(t.app)}/v/${b!.token}`;
    const wrapped = `https://eur01.safelinks.protection.outlook.com/?url=${encodeURIComponent(link)}&data=05%7C02&reserved=0`;
    const byLink = await postMessage(key, email('X-Other: 1', `Sign in here: ${wrapped}\r\n`));
    expect(byLink.statusCode).toBe(202);
    expect(byLink.json().employee_id).toBe(b!.employee.id);
    const reasons = await t.app.db
      .selectFrom('phishing_events')
      .select('reason')
      .where('campaign_id', '=', c.campaignId)
      .where('kind', '=', 'reported')
      .execute();
    expect(reasons.map((r) => r.reason)).toEqual(['report_message', 'report_message']);
    expect((await figuresOf(t.app, c.campaignId)).reported).toBe(2);
  });

  it('a message with no simulation is a 404; an Outlook .msg is a 400 with its code', async () => {
    const { key } = await makeKey(t.app);
    const none = await postMessage(key, email('X-Other: 1', 'Nothing here.'));
    expect(none.statusCode).toBe(404);
    expect(none.json()).toMatchObject(coded('simulation_not_found'));
    const msg = Buffer.concat([
      Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
      Buffer.alloc(600),
    ]);
    const outlook = await postMessage(key, msg);
    expect(outlook.statusCode).toBe(400);
    expect(outlook.json()).toMatchObject(coded('reported_message_unreadable'));
    expect(outlook.json().error).toContain('Outlook');
  });

  it('accepts a message larger than the JSON body limit, up to 10 MiB', async () => {
    const { key, accountId } = await makeKey(t.app);
    const c = await seedPhishingCampaign(t.app, accountId, { people: 1 });
    const filler = 'x'.repeat(76);
    const body = `${Array.from({ length: (9 * 1024 * 1024) / 78 }, () => filler).join('\r\n')}`;
    const big = await postMessage(key, email(`X-Vigil-Simulation: ${c.people[0]!.token}`, body));
    expect(big.statusCode).toBe(202);
    const tooBig = await postMessage(key, Buffer.alloc(10 * 1024 * 1024 + 10, 'a'));
    expect(tooBig.statusCode).toBe(413);
  });
});
