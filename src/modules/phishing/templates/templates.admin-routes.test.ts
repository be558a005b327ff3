import { beforeAll, describe, expect, it } from 'vitest';
import { type AdminClient, adminSender, signInAs } from '../../../../test/helpers/admin.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { coded, validationFailedBody } from '../../../../test/helpers/errors.js';
import { makeAccount } from '../../../../test/helpers/factories.js';
import type { PhishingCampaignStatus } from '../../../core/db/schema.js';
import { scannerNetworksOf } from '../settings/settings.repository.js';
import { templateKeyExists, templatesByKeys } from './templates.service.js';

// The admin API's phishing templates (built-in library and an account's own) and settings.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const send = (
  as: AdminClient | undefined,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
) => adminSender(t.app)(as, method, url, payload);

const TEMPLATE = {
  name: 'Parking permit renewal',
  summary: 'Facilities asks everyone to renew a parking permit.',
  subject: 'Your parking permit for {{company}} expires Friday',
  sender_name: 'Facilities at {{company}}',
  sender_address: 'facilities',
  html: '<html><body><p>Hi {{first_name}},</p><p><a href="{{link}}">Renew permit</a></p></body></html>',
  text: 'Hi {{first_name}},\n\nRenew permit: {{link}}\n\nFacilities',
  landing_html:
    '<h1>Sign in, {{first_name}}</h1><form><input name="password" type="password"><button>Go</button></form>',
  difficulty: 2,
  category: 'credential_harvest',
  language: 'en',
  red_flags: [
    { text: 'A deadline to rush you.', part: 'subject', quote: 'expires Friday' },
    { text: 'Permits are renewed at the desk, not through a link.', part: 'link', quote: 'Renew permit' },
  ],
};

async function setup() {
  const mine = await makeAccount(t.app);
  const theirs = await makeAccount(t.app);
  const admin = await signInAs(t.app, { role: 'account_admin', accountId: mine.id });
  const theirAdmin = await signInAs(t.app, { role: 'account_admin', accountId: theirs.id });
  return {
    admin,
    theirAdmin,
    accountId: mine.id,
    theirAccountId: theirs.id,
    base: `/accounts/${mine.id}/phishing`,
    theirBase: `/accounts/${theirs.id}/phishing`,
  };
}

async function create(as: AdminClient, base: string, body: object = TEMPLATE): Promise<string> {
  const res = await send(as, 'POST', `${base}/templates`, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().key;
}

async function campaignUsing(accountId: number, key: string, status: PhishingCampaignStatus) {
  const now = Date.now();
  const c = await t.app.db
    .insertInto('phishing_campaigns')
    .values({
      account_id: accountId,
      name: `Campaign ${status}`,
      status,
      window_start_at: null,
      window_end_at: null,
      sender_domain: null,
      remedial_campaign_id: null,
      launched_at: null,
      completed_at: null,
      completed_reason: null,
      archived_at: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.app.db
    .insertInto('phishing_campaign_templates')
    .values({ campaign_id: c.id, template_key: key, position: 0, snapshot: null })
    .execute();
  return c.id;
}

const poolOf = async (campaignId: number) =>
  (
    await t.app.db
      .selectFrom('phishing_campaign_templates')
      .select('template_key')
      .where('campaign_id', '=', campaignId)
      .execute()
  ).map((r) => r.template_key);

describe('the template library', () => {
  it('lists the built-in templates, filtered by difficulty, category, source and words', async () => {
    const { admin, base } = await setup();
    const all = await send(admin, 'GET', `${base}/templates?page_size=200`);
    expect(all.statusCode).toBe(200);
    expect(all.json().count).toBeGreaterThanOrEqual(15);
    const first = all.json().results[0];
    expect(first).toMatchObject({ source: 'builtin', key: expect.stringMatching(/^builtin:[a-z0-9-]+$/) });
    expect(first.created_at).toBeNull();

    const easy = (await send(admin, 'GET', `${base}/templates?difficulty=1`)).json();
    expect(easy.count).toBeGreaterThan(0);
    expect(easy.results.every((r: { difficulty: number }) => r.difficulty === 1)).toBe(true);

    const invoices = (await send(admin, 'GET', `${base}/templates?category=invoice`)).json();
    expect(invoices.results.map((r: { key: string }) => r.key)).toContain('builtin:invoice-final-notice');

    const key = await create(admin, base);
    const custom = (await send(admin, 'GET', `${base}/templates?source=custom`)).json();
    expect(custom).toEqual({ count: 1, results: [expect.objectContaining({ key, source: 'custom' })] });

    const words = (await send(admin, 'GET', `${base}/templates?q=PARKING%20permit`)).json();
    expect(words.results.map((r: { key: string }) => r.key)).toEqual([key]);

    const paged = (await send(admin, 'GET', `${base}/templates?page=2&page_size=5`)).json();
    expect(paged.count).toBe(all.json().count + 1);
    expect(paged.results).toHaveLength(5);
  });

  it('refuses filters that are no value of theirs', async () => {
    const { admin, base } = await setup();
    for (const query of ['difficulty=6', 'category=lottery', 'source=mine', 'page=0']) {
      const res = await send(admin, 'GET', `${base}/templates?${query}`);
      expect(res.statusCode, query).toBe(400);
    }
  });

  it('shows one built-in template with its red flags', async () => {
    const { admin, base } = await setup();
    const res = await send(admin, 'GET', `${base}/templates/builtin:invoice-final-notice`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      key: 'builtin:invoice-final-notice',
      source: 'builtin',
      difficulty: 1,
      category: 'invoice',
      sender_address: 'accounts.receivable.billing99',
      red_flags: expect.arrayContaining([
        { text: expect.any(String), part: 'subject', quote: 'Legal Action Pending' },
      ]),
    });
    expect(res.json().html).toContain('{{link}}');
  });

  it('answers 404 for unknown and malformed keys', async () => {
    const { admin, base } = await setup();
    for (const key of ['builtin:nope', 'custom:987654321', 'custom:0', 'custom:abc', 'phishing', '']) {
      const res = await send(admin, 'GET', `${base}/templates/${encodeURIComponent(key)}`);
      if (key === '') continue; // the list
      expect(res.json(), key).toEqual({
        error: 'Phishing template not found',
        status: 404,
        ...coded('phishing_template_not_found'),
      });
    }
  });
});

describe('saving a template', () => {
  it('creates, reads and replaces an own template', async () => {
    const { admin, base } = await setup();
    const key = await create(admin, base);
    expect(key).toMatch(/^custom:\d+$/);
    const one = await send(admin, 'GET', `${base}/templates/${key}`);
    expect(one.json()).toMatchObject({ ...TEMPLATE, key, source: 'custom', cloned_from: null });
    const changed = await send(admin, 'PUT', `${base}/templates/${key}`, {
      ...TEMPLATE,
      name: 'Renamed',
      difficulty: 4,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ name: 'Renamed', difficulty: 4 });
    expect((await send(admin, 'GET', `${base}/templates/${key}`)).json().name).toBe('Renamed');
  });

  it('names unknown variables, a body without {{link}} and red flags that quote nothing', async () => {
    const { admin, base } = await setup();
    const res = await send(admin, 'POST', `${base}/templates`, {
      ...TEMPLATE,
      subject: 'Hello {{frist_name}}',
      text: 'No link here',
      red_flags: [{ text: 'Only one', part: 'body', quote: 'not in the text' }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(
      validationFailedBody({
        subject: ['unknown variable {{frist_name}}'],
        text: ['must contain {{link}}, the personal link that records the click'],
        red_flags: ['must have 2 to 6 entries'],
        'red_flags[0].quote': ['is not in the text body'],
      }),
    );
    const list = (await send(admin, 'GET', `${base}/templates?source=custom`)).json();
    expect(list.count).toBe(0);
  });

  it('refuses unknown fields and wrong types before anything else', async () => {
    const { admin, base } = await setup();
    expect((await send(admin, 'POST', `${base}/templates`, { ...TEMPLATE, extra: 1 })).statusCode).toBe(400);
    expect(
      (await send(admin, 'POST', `${base}/templates`, { ...TEMPLATE, difficulty: 'two' })).statusCode,
    ).toBe(400);
  });

  it('keeps built-in templates as they are: change and delete are 409, clone makes a copy', async () => {
    const { admin, base } = await setup();
    const url = `${base}/templates/builtin:invoice-final-notice`;
    const put = await send(admin, 'PUT', url, TEMPLATE);
    expect(put.json()).toEqual({
      error: 'Built-in phishing templates cannot be changed; clone it into a template of your own',
      status: 409,
      ...coded('phishing_template_built_in'),
    });
    expect((await send(admin, 'DELETE', url)).json().code).toBe('phishing_template_built_in');

    const clone = await send(admin, 'POST', `${url}/clone`, {});
    expect(clone.statusCode, clone.body).toBe(201);
    expect(clone.json()).toMatchObject({
      key: expect.stringMatching(/^custom:\d+$/),
      source: 'custom',
      name: 'Final notice: unpaid invoice (copy)',
      cloned_from: 'builtin:invoice-final-notice',
      difficulty: 1,
    });
    const again = await send(admin, 'POST', `${base}/templates/${clone.json().key}/clone`, { name: 'Mine' });
    expect(again.json()).toMatchObject({ name: 'Mine', cloned_from: clone.json().key });
    // The copy can be edited.
    const { key, source, cloned_from, created_at, updated_at, ...content } = clone.json() as Record<
      string,
      unknown
    >;
    const edit = await send(admin, 'PUT', `${base}/templates/${key}`, {
      ...content,
      name: 'Edited copy',
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json().cloned_from).toBe('builtin:invoice-final-notice');
  });
});

describe('deleting a template', () => {
  it('deletes an unused one, and takes it out of drafts', async () => {
    const { admin, base, accountId } = await setup();
    const key = await create(admin, base);
    const draft = await campaignUsing(accountId, key, 'draft');
    const res = await send(admin, 'DELETE', `${base}/templates/${key}`);
    expect(res.statusCode).toBe(204);
    expect((await send(admin, 'GET', `${base}/templates/${key}`)).statusCode).toBe(404);
    expect(await poolOf(draft)).toEqual([]);
  });

  it('refuses one that a campaign past its draft uses, naming it', async () => {
    const { admin, base, accountId } = await setup();
    const key = await create(admin, base);
    const draft = await campaignUsing(accountId, key, 'draft');
    await campaignUsing(accountId, key, 'running');
    const res = await send(admin, 'DELETE', `${base}/templates/${key}`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'phishing_template_in_use',
      error: 'This template is used by "Campaign running"; it cannot be deleted',
    });
    expect((await send(admin, 'GET', `${base}/templates/${key}`)).statusCode).toBe(200);
    expect(await poolOf(draft)).toEqual([key]);
  });
});

describe("another account's templates", () => {
  it('are 404 everywhere, exactly like nonexistent ones, and stay unchanged', async () => {
    const { admin, base, theirAdmin, theirBase } = await setup();
    const theirs = await create(theirAdmin, theirBase);
    const none = 'custom:987654321';
    const calls: ['GET' | 'PUT' | 'DELETE' | 'POST', string, object?][] = [
      ['GET', ''],
      ['PUT', '', TEMPLATE],
      ['DELETE', ''],
      ['POST', '/clone', {}],
    ];
    for (const [method, tail, body] of calls) {
      const them = await send(admin, method, `${base}/templates/${theirs}${tail}`, body);
      const nobody = await send(admin, method, `${base}/templates/${none}${tail}`, body);
      expect(them.statusCode, `${method} ${tail}`).toBe(404);
      expect({ ...them.json(), request_id: 0 }).toEqual({ ...nobody.json(), request_id: 0 });
    }
    const list = (await send(admin, 'GET', `${base}/templates?page_size=200`)).json();
    expect(list.results.map((r: { key: string }) => r.key)).not.toContain(theirs);
    const still = await send(theirAdmin, 'GET', `${theirBase}/templates/${theirs}`);
    expect(still.json()).toMatchObject({ name: TEMPLATE.name });
    // On their path, my administrator finds no account at all.
    expect((await send(admin, 'GET', `${theirBase}/templates`)).json().code).toBe('account_not_found');
  });

  it('are absent from templatesByKeys and templateKeyExists', async () => {
    const { admin, base, accountId, theirAdmin, theirBase } = await setup();
    const mine = await create(admin, base);
    const theirs = await create(theirAdmin, theirBase);
    const found = await templatesByKeys(t.app.db, accountId, [
      mine,
      theirs,
      'builtin:invoice-final-notice',
      'builtin:nope',
      'custom:x',
    ]);
    expect([...found.keys()].sort()).toEqual(['builtin:invoice-final-notice', mine].sort());
    expect(found.get(mine)).toMatchObject({
      key: mine,
      name: TEMPLATE.name,
      content: { subject: TEMPLATE.subject },
    });
    expect(found.get('builtin:invoice-final-notice')?.content.red_flags.length).toBeGreaterThan(1);
    expect(await templateKeyExists(t.app.db, accountId, theirs)).toBe(false);
    expect(await templateKeyExists(t.app.db, accountId, mine)).toBe(true);
  });
});

describe('the live preview', () => {
  it('renders a draft for the sample person, values escaped, without saving it', async () => {
    const { admin, base } = await setup();
    const res = await send(admin, 'POST', `${base}/templates/preview`, TEMPLATE);
    expect(res.statusCode, res.body).toBe(200);
    const p = res.json();
    expect(p.errors).toEqual({});
    expect(p.email.subject).toMatch(/^Your parking permit for .+ expires Friday$/);
    expect(p.email.sender_address).toMatch(/^facilities@/);
    expect(p.email.html).toContain('Hi Alex,');
    expect(p.email.html).toMatch(/href="https?:\/\/[^"]+\/v\/preview"/);
    expect(p.email.html).not.toContain('/t/');
    expect(p.email.text).toContain('Renew permit: http');
    expect(p.landing_html).toContain('noindex');
    expect(p.landing_html).toContain('Sign in, Alex');
    expect(p.teachable.flags.map((f: { marked: boolean }) => f.marked)).toEqual([true, true]);
    expect(p.teachable.subject_html).toContain('<mark data-flag="1">expires Friday</mark>');
    expect((await send(admin, 'GET', `${base}/templates?source=custom`)).json().count).toBe(0);
  });

  it('names the errors and still renders the parts that are right', async () => {
    const { admin, base } = await setup();
    const res = await send(admin, 'POST', `${base}/templates/preview`, {
      ...TEMPLATE,
      subject: 'Hi {{frist_name}}, it expires Friday',
      landing_html: '<p onclick="steal()">Hi</p><script>alert(1)</script>',
    });
    expect(res.statusCode).toBe(200);
    const p = res.json();
    expect(p.errors).toEqual({ subject: ['unknown variable {{frist_name}}'] });
    expect(p.email.subject).toBeNull();
    expect(p.email.html).toContain('Hi Alex,');
    expect(p.landing_html).not.toMatch(/script|onclick/);
    expect(p.teachable).toBeNull();
  });

  it('takes a partial draft (missing fields are errors of the preview, not a 400)', async () => {
    const { admin, base } = await setup();
    const res = await send(admin, 'POST', `${base}/templates/preview`, { html: '<p>{{link}}</p>' });
    expect(res.statusCode).toBe(200);
    expect(res.json().errors.subject).toEqual(['is required']);
    expect(res.json().email.html).toMatch(/<p>http.*\/v\/preview<\/p>/);
  });
});

describe('phishing settings', () => {
  it('keeps the scanner networks with their comments, read by scannerNetworksOf', async () => {
    const { admin, base, accountId, theirAccountId } = await setup();
    // The test app has no PUBLIC_URL: its links point at 127.0.0.1, so a local sender is allowed.
    const sender = {
      sender_name: null,
      sender_address: null,
      sender_domain: null,
      default_sender_domain: '127.0.0.1',
      simulation_header: 'X-Vigil-Simulation',
      simulation_header_is_default: true,
      local_sender_allowed: true,
    };
    expect((await send(admin, 'GET', `${base}/settings`)).json()).toEqual({
      scanner_networks: [],
      ...sender,
      updated_at: null,
    });
    const lines = ['# Mail gateway', ' 203.0.113.0/24 ', '', '2001:db8::/32'];
    const res = await send(admin, 'PUT', `${base}/settings`, { scanner_networks: lines });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      scanner_networks: ['# Mail gateway', '203.0.113.0/24', '2001:db8::/32'],
      ...sender,
      updated_at: expect.any(String),
    });
    expect(await scannerNetworksOf(t.app.db, accountId)).toEqual([
      '# Mail gateway',
      '203.0.113.0/24',
      '2001:db8::/32',
    ]);
    expect(await scannerNetworksOf(t.app.db, theirAccountId)).toEqual([]);
  });

  it('keeps the account’s own simulation header, refuses a name that is no X- header, and restores the default', async () => {
    const { admin, base } = await setup();
    const set = await send(admin, 'PUT', `${base}/settings`, { simulation_header: ' X-Acme-Check ' });
    expect(set.json()).toMatchObject({
      simulation_header: 'X-Acme-Check',
      simulation_header_is_default: false,
    });
    for (const bad of ['Subject', 'X-', 'X-a b', `X-${'a'.repeat(80)}`, 'X-é']) {
      const res = await send(admin, 'PUT', `${base}/settings`, { simulation_header: bad });
      expect(res.json(), bad).toMatchObject({
        status: 400,
        details: { simulation_header: [expect.any(String)] },
      });
    }
    const reset = await send(admin, 'PUT', `${base}/settings`, { simulation_header: '' });
    expect(reset.json()).toMatchObject({
      simulation_header: 'X-Vigil-Simulation',
      simulation_header_is_default: true,
    });
  });

  it('refuses bad lines, naming each, and changes nothing', async () => {
    const { admin, base } = await setup();
    await send(admin, 'PUT', `${base}/settings`, { scanner_networks: ['198.51.100.0/24'] });
    const res = await send(admin, 'PUT', `${base}/settings`, {
      scanner_networks: ['198.51.100.0/24', 'not an address', '10.0.0.1/8', '0.0.0.0/0'],
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().details)).toEqual([
      'scanner_networks[1]',
      'scanner_networks[2]',
      'scanner_networks[3]',
    ]);
    expect(res.json().details['scanner_networks[2]'][0]).toContain('10.0.0.0/8');
    expect((await send(admin, 'GET', `${base}/settings`)).json().scanner_networks).toEqual([
      '198.51.100.0/24',
    ]);
  });
});
