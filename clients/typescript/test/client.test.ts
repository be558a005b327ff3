import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeCampaign, makeKey, seedEmployees } from '../../../test/helpers/factories.js';
import { isVigilError, VigilClient } from '../src/index.js';
import { caught } from './helpers/errors.js';
import { listeningApp } from './helpers/server.js';

/**
 * The client against the real server (the app on a throwaway database of the dialect under
 * test, listening on a port): resources, auto-pagination, ETags and typed errors.
 */

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../../..');

let server: Awaited<ReturnType<typeof listeningApp>>;
beforeAll(async () => {
  server = await listeningApp();
});

/** A client with a key of a new account, counting the requests it sends. */
async function newClient(grants?: string[]) {
  const { key, accountId } = await makeKey(server.app, grants ? { grants } : {});
  const sent: string[] = [];
  const client = new VigilClient({
    baseUrl: server.baseUrl,
    apiKey: key,
    fetch: (input, init) => {
      sent.push(`${init?.method ?? 'GET'} ${String(input).slice(server.baseUrl.length)}`);
      return fetch(input, init);
    },
  });
  return { client, accountId, sent };
}

describe('employees', () => {
  it('creates, reads, finds by email, updates and offboards an employee', async () => {
    const { client } = await newClient();
    const ann = await client.employees.create({
      first_name: 'Ann',
      last_name: 'Lee',
      email: 'Ann.Lee@example.com',
    });
    expect(ann).toMatchObject({ first_name: 'Ann', last_name: 'Lee', email: 'Ann.Lee@example.com' });
    expect(await client.employees.get(ann.id)).toEqual(ann);
    expect(await client.employees.findByEmail('ann.lee@EXAMPLE.com')).toEqual(ann);
    expect(await client.employees.findByEmail('nobody@example.com')).toBeNull();
    const renamed = await client.employees.update(ann.id, { last_name: 'Lee-Park' });
    expect(renamed).toMatchObject({ id: ann.id, last_name: 'Lee-Park', email: 'Ann.Lee@example.com' });
    await client.employees.delete(ann.id);
    const gone = await caught(client.employees.get(ann.id));
    expect(gone).toMatchObject({ code: 'employee_not_found', status: 404, attempts: 1 });
  });

  it('upserts by address in bulk, reads only what changed since, and lists the deleted ids', async () => {
    const { client } = await newClient();
    const start = new Date(Date.now() - 1000).toISOString();
    const first = await client.employees.bulkUpsert([
      { first_name: 'Ann', last_name: 'Lee', email: 'ann@example.com' },
      { first_name: 'Bo', last_name: 'Chen', email: 'bo@example.com' },
      { first_name: 'Cy', last_name: 'Ng', email: 'not an address' },
    ]);
    expect(first.counts).toEqual({ created: 2, updated: 0, unchanged: 0, error: 1 });
    expect(first.results[2]).toMatchObject({
      index: 2,
      status: 'error',
      error: { code: 'validation_failed' },
    });
    const again = await client.employees.bulkUpsert([
      { first_name: 'Ann', last_name: 'Lee', email: 'ann@example.com' },
      { first_name: 'Bo', last_name: 'Chen-Wu', email: 'bo@example.com' },
    ]);
    expect(again.results.map((r) => r.status)).toEqual(['unchanged', 'updated']);
    const changed = await client.employees.list({ updated_since: start }).toArray();
    expect(changed.map((e) => e.email).sort()).toEqual(['ann@example.com', 'bo@example.com']);
    await client.employees.delete(first.results[0]!.id!);
    const deleted = await client.employees.listDeleted({ since: start }).toArray();
    expect(deleted.map((d) => d.id)).toEqual([first.results[0]!.id]);
  });

  it('lists every employee across several pages, each once, in id order', async () => {
    const { client, accountId, sent } = await newClient();
    const ids = await seedEmployees(server.app, accountId, 23);
    const seen: number[] = [];
    for await (const employee of client.employees.list({ page_size: 10 })) seen.push(employee.id);
    expect(seen).toEqual(ids);
    expect(sent).toEqual(
      [1, 2, 3].map((n) => `GET /api/api_gateway/customer/employees/?page=${n}&page_size=10`),
    );

    const one = await client.employees.page({ page: 3, page_size: 10 });
    expect(one).toMatchObject({ count: 23, next: null });
    expect(one.results.map((e) => e.id)).toEqual(ids.slice(20));
    // The default asks for the largest pages: one request for 23 people.
    expect((await client.employees.list().toArray()).map((e) => e.id)).toEqual(ids);
    // From a later page on, and by pages.
    const pages = [];
    for await (const page of client.employees.list({ page: 2, page_size: 10 }).pages())
      pages.push(page.results.length);
    expect(pages).toEqual([10, 3]);
  });

  it('iterates an empty list without error', async () => {
    const { client } = await newClient();
    expect(await client.employees.list().toArray()).toEqual([]);
    expect(await client.groups.list().toArray()).toEqual([]);
  });
});

describe('groups', () => {
  it('creates, renames, adds and removes members, replaces with If-Match, and deletes', async () => {
    const { client, accountId } = await newClient();
    const [a, b, c] = await seedEmployees(server.app, accountId, 3);
    const group = await client.groups.create({ name: 'Sales', description: 'Everyone in sales' });
    expect(group).toMatchObject({ name: 'Sales', employee_count: 0, employees: [] });
    expect(await client.groups.update(group.id, { name: 'Sales EMEA' })).toMatchObject({
      name: 'Sales EMEA',
    });

    const added = await client.groups.addMembers(group.id, [a!, b!]);
    expect(added.group.employees.map((e) => e.id)).toEqual([a, b]);
    const removed = await client.groups.removeMembers(group.id, [a!]);
    expect(removed.group.employees.map((e) => e.id)).toEqual([b]);
    expect(removed.etag).not.toBe(added.etag);

    // A read-modify-write that nobody else interleaved goes through; a stale ETag is refused.
    const { group: current, etag } = await client.groups.getWithEtag(group.id);
    expect(etag).toBe(removed.etag);
    const replaced = await client.groups.replaceMembers(
      group.id,
      [...current.employees.map((e) => e.id), c!],
      {
        ifMatch: etag!,
      },
    );
    expect(replaced.group).toMatchObject({ employee_count: 2 });
    const stale = await caught(client.groups.replaceMembers(group.id, [], { ifMatch: etag! }));
    expect(stale).toMatchObject({ code: 'precondition_failed', status: 412 });
    expect((await client.groups.get(group.id)).employee_count).toBe(2);

    expect((await client.groups.list().toArray()).map((g) => g.id)).toEqual([group.id]);
    await client.groups.delete(group.id);
    expect(await caught(client.groups.get(group.id))).toMatchObject({ code: 'group_not_found', status: 404 });
  });
});

describe('webhooks', () => {
  it('creates an endpoint with its secret once, rotates it, changes the filter, lists and deletes', async () => {
    const { client } = await newClient();
    const created = await client.webhooks.create({
      url: 'https://hr.example.com/vigil/webhooks',
      event_types: ['employee.created'],
    });
    expect(created.secret).toMatch(/^whsec_/);
    const rotated = await client.webhooks.rotateSecret(created.id);
    expect(rotated.secret).not.toBe(created.secret);
    expect(rotated.previous_secret_expires_at).not.toBeNull();
    const changed = await client.webhooks.update(created.id, {
      event_types: ['group.created'],
      enabled: false,
    });
    expect(changed).toMatchObject({ event_types: ['group.created'], enabled: false });
    expect(changed).not.toHaveProperty('secret');
    expect((await client.webhooks.list().toArray()).map((e) => e.id)).toEqual([created.id]);
    expect(await client.webhooks.deliveries(created.id).toArray()).toEqual([]);
    await client.webhooks.delete(created.id);
    expect(await caught(client.webhooks.get(created.id))).toMatchObject({
      code: 'webhook_endpoint_not_found',
    });
  });
});

describe('campaigns and phishing reports', () => {
  it('lists and reads training campaigns and their enrollments, and phishing campaigns', async () => {
    const { client, accountId } = await newClient();
    const made = await makeCampaign(server.app, accountId, [], 'Onboarding');
    const campaigns = await client.campaigns.training.list().toArray();
    expect(campaigns.map((c) => [c.id, c.name, c.status])).toEqual([[made.id, 'Onboarding', 'draft']]);
    expect(await client.campaigns.training.get(made.id)).toMatchObject({ id: made.id, enrolled_count: 0 });
    expect(await client.campaigns.training.enrollments(made.id, { status: 'completed' }).toArray()).toEqual(
      [],
    );
    expect(await client.campaigns.phishing.list().toArray()).toEqual([]);
    const missing = await caught(client.campaigns.phishing.get(999_999));
    expect(missing).toMatchObject({ code: 'campaign_not_found', status: 404 });
  });

  it('reports a token no simulation has as simulation_not_found', async () => {
    const { client } = await newClient();
    const err = await caught(client.phishingReports.create({ token: 'q1Jb3T0yS5d8n2lK4pXw7A9cVe6RtUhZ' }));
    expect(err).toMatchObject({ code: 'simulation_not_found', status: 404 });
  });
});

describe('typed errors', () => {
  it('gives the code, status, request id and details of an error answer', async () => {
    const { client, accountId } = await newClient();
    const body = { first_name: 'Bo', last_name: 'Chen', email: 'bo.chen@example.com' };
    await client.employees.create(body);
    const taken = await caught(client.employees.create({ ...body, email: 'BO.CHEN@example.com' }));
    expect(taken).toMatchObject({
      code: 'email_taken',
      status: 409,
      message: 'Email already exists',
      attempts: 1,
    });
    expect(taken.requestId).toMatch(/\S/);
    // The code is a union of the document's codes: a code the API has not compiles, one it lacks does not.
    if (taken.code === 'email_taken') expect(taken.is('email_taken')).toBe(true);
    // @ts-expect-error: no such code in the API's catalogue
    expect(taken.code === 'employee_email_taken').toBe(false);

    const invalid = await caught(client.employees.create({ first_name: '', last_name: 'X', email: 'a@b' }));
    expect(invalid.is('validation_failed') && Object.keys(invalid.details).sort()).toEqual([
      'email',
      'first_name',
    ]);

    const group = await client.groups.create({ name: 'Ops' });
    const [id] = await seedEmployees(server.app, accountId, 1);
    const unknown = await caught(client.groups.addMembers(group.id, [id!, 999_999_999]));
    expect(isVigilError(unknown, 'invalid_employee_ids') && unknown.details.invalid_ids).toEqual([
      999_999_999,
    ]);
  });

  it('names the 401s and the 403, whose bodies carry no code', async () => {
    const wrongKey = new VigilClient({ baseUrl: server.baseUrl, apiKey: `vgl_${'x'.repeat(40)}` });
    expect(await caught(wrongKey.employees.page())).toMatchObject({
      code: 'invalid_api_key',
      status: 401,
      message: 'Invalid API key',
    });
    const { client } = await newClient(['employees:r']);
    const forbidden = await caught(client.groups.page());
    expect(forbidden).toMatchObject({ code: 'forbidden', status: 403 });
    expect(forbidden.requestId).toMatch(/\S/);
  });

  it('reaches any operation by its id with the answer headers', async () => {
    const { client } = await newClient();
    const created = await client.request('createGroup', { body: { name: 'Raw' } });
    expect(created).toMatchObject({ status: 201, replayed: false, data: { name: 'Raw' } });
    expect(created.headers.get('location')).toMatch(new RegExp(`/customer/groups/${created.data.id}/$`));
    expect(created.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('the integrations guide (docs/integrations.md, linked from the README)', () => {
  it('runs its sync script as written, twice, with the same result', async () => {
    const { key } = await makeKey(server.app);
    const guide = readFileSync(resolve(ROOT, 'docs/integrations.md'), 'utf8');
    const section = guide.slice(guide.indexOf('## The TypeScript client'));
    const script = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    expect(script).toContain("from '@vigil/client'");
    const dir = mkdtempSync(join(tmpdir(), 'vigil-readme-'));
    const people = [
      { first_name: 'Ann', last_name: 'Lee', email: 'ann.lee@example.com' },
      { first_name: 'Bo', last_name: 'Chen', email: 'bo.chen@example.com' },
    ];
    writeFileSync(join(dir, 'hr.json'), JSON.stringify(people));
    writeFileSync(
      join(dir, 'sync.mts'),
      script!
        .replace("'@vigil/client'", JSON.stringify(resolve(import.meta.dirname, '../src/index.ts')))
        .replace("'https://vigil.example.com'", JSON.stringify(server.baseUrl))
        .replace('process.env.VIGIL_API_KEY!', JSON.stringify(key))
        .replace("'hr.json'", JSON.stringify(join(dir, 'hr.json'))),
    );
    // Run from the repository, where `tsx` is installed.
    const sync = () => run(process.execPath, ['--import', 'tsx', join(dir, 'sync.mts')], { cwd: ROOT });
    await sync();
    people[1]!.last_name = 'Chen-Wu';
    writeFileSync(join(dir, 'hr.json'), JSON.stringify(people));
    await sync();
    rmSync(dir, { recursive: true, force: true });

    const client = new VigilClient({ baseUrl: server.baseUrl, apiKey: key });
    const [staff, ...others] = await client.groups.list().toArray();
    expect(others).toEqual([]);
    const group = await client.groups.get(staff!.id);
    expect(group.name).toBe('All staff');
    expect(group.employees.map((e) => [e.email, e.last_name])).toEqual([
      ['ann.lee@example.com', 'Lee'],
      ['bo.chen@example.com', 'Chen-Wu'],
    ]);
    expect((await client.employees.page()).count).toBe(2);
  });
});
