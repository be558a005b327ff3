import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type AdminMethod,
  adminOfOneOfTwoAccounts,
  adminSender,
  signInAs,
} from '../../../../test/helpers/admin.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { coded, validationFailedBody } from '../../../../test/helpers/errors.js';
import {
  client,
  makeEmployee,
  makeGroup,
  makeKey,
  seedEmployees,
} from '../../../../test/helpers/factories.js';
import { addGroupMembers } from '../groups/groups.membership.commands.js';

// The admin API's employee routes: per route, 401 without a session → 404 for another
// account (its path, or its employee in ours) → 400 → success.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const send = (...args: Parameters<ReturnType<typeof adminSender>>) => adminSender(t.app)(...args);

/** An account with an administrator, and another account with an employee. */
async function accounts() {
  const two = await adminOfOneOfTwoAccounts(t.app);
  const stranger = await makeEmployee(t.app, two.theirs, { first_name: 'Their', last_name: 'Person' });
  return { ...two, stranger };
}

const ann = { first_name: 'Ann', last_name: 'Lee', email: 'ann.lee@example.com' };

const ROUTES: Array<[AdminMethod, string, unknown?]> = [
  ['GET', '/employees'],
  ['POST', '/employees', ann],
  ['GET', '/employees/1'],
  ['PATCH', '/employees/1', { first_name: 'X' }],
  ['DELETE', '/employees/1'],
  ['POST', '/employees/import', { rows: [ann], dry_run: true }],
  ['GET', '/employees/export.csv'],
];

describe('access to the employee routes', () => {
  it('answers 401 without a session', async () => {
    const { base } = await accounts();
    for (const [method, path, body] of ROUTES) {
      const res = await send(undefined, method, `${base}${path}`, body);
      expect(res.statusCode, `${method} ${path}`).toBe(401);
      expect(res.json()).toEqual({ error: 'Sign-in required', status: 401, ...coded('sign_in_required') });
    }
  });

  it('answers 404 Account not found on another account’s path, changing nothing', async () => {
    const { theirs, admin, stranger } = await accounts();
    for (const [method, path, body] of ROUTES) {
      const res = await send(
        admin,
        method,
        `/accounts/${theirs}${path.replace('/1', `/${stranger.id}`)}`,
        body,
      );
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(res.json()).toEqual({ error: 'Account not found', status: 404, ...coded('account_not_found') });
    }
    const operator = await signInAs(t.app, { role: 'operator' });
    const list = await send(operator, 'GET', `/accounts/${theirs}/employees`);
    expect(list.json()).toMatchObject({ count: 1, results: [{ id: stranger.id, first_name: 'Their' }] });
  });

  it('answers 404 Employee not found for another account’s employee on our path', async () => {
    const { base, admin, stranger, theirs } = await accounts();
    for (const [method, body] of [['GET'], ['PATCH', { first_name: 'Mine' }], ['DELETE']] as const) {
      for (const id of [stranger.id, 'abc', '0']) {
        const res = await send(admin, method, `${base}/employees/${id}`, body);
        expect(res.statusCode, `${method} ${id}`).toBe(404);
        expect(res.json()).toEqual({
          error: 'Employee not found',
          status: 404,
          ...coded('employee_not_found'),
        });
      }
    }
    const operator = await signInAs(t.app, { role: 'operator' });
    const still = await send(operator, 'GET', `/accounts/${theirs}/employees/${stranger.id}`);
    expect(still.json()).toMatchObject({ first_name: 'Their', last_name: 'Person' });
  });

  it('refuses a change without the CSRF token', async () => {
    const { base, admin } = await accounts();
    const res = await t.app.inject({
      method: 'POST',
      url: `/admin/api${base}/employees`,
      headers: { cookie: admin.headers.cookie! },
      payload: ann,
    });
    expect(res.statusCode).toBe(403);
    expect((await send(admin, 'GET', `${base}/employees`)).json().count).toBe(0);
  });
});

describe('GET …/employees', () => {
  it('refuses page, page_size, sort and order it does not know', async () => {
    const { base, admin } = await accounts();
    const res = await send(admin, 'GET', `${base}/employees?page=0&page_size=1.5&sort=age&order=up`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(
      validationFailedBody({
        page: ['must be a positive integer'],
        page_size: ['must be a positive integer'],
        sort: ['must be one of: last_name, first_name, email, created_at'],
        order: ['must be one of: asc, desc'],
      }),
    );
  });

  it('searches, sorts and pages; page_size above 200 is clamped; a page past the last is empty', async () => {
    const { mine, base, admin } = await accounts();
    const lee = await makeEmployee(t.app, mine, ann);
    const bo = await makeEmployee(t.app, mine, {
      first_name: 'Bo',
      last_name: 'Adams',
      email: 'bo@example.com',
    });
    const res = await send(admin, 'GET', `${base}/employees?search=LEE`);
    expect(res.json()).toEqual({
      count: 1,
      results: [
        {
          id: lee.id,
          first_name: 'Ann',
          last_name: 'Lee',
          email: 'ann.lee@example.com',
          created_at: new Date(lee.created_at).toISOString(),
          updated_at: new Date(lee.updated_at).toISOString(),
          active: true,
        },
      ],
    });
    const byName = await send(admin, 'GET', `${base}/employees?sort=first_name&order=desc`);
    expect(byName.json().results.map((e: { id: number }) => e.id)).toEqual([bo.id, lee.id]);
    await seedEmployees(t.app, mine, 250);
    const big = await send(admin, 'GET', `${base}/employees?page_size=1000`);
    expect(big.json().count).toBe(252);
    expect(big.json().results).toHaveLength(200);
    expect((await send(admin, 'GET', `${base}/employees`)).json().results).toHaveLength(25);
    const last = await send(admin, 'GET', `${base}/employees?page=11`);
    expect(last.json()).toMatchObject({ count: 252, results: [{}, {}] });
    expect((await send(admin, 'GET', `${base}/employees?page=12`)).json()).toEqual({
      count: 252,
      results: [],
    });
  });
});

describe('POST …/employees', () => {
  it('creates an employee with the create rules; a taken address is 409', async () => {
    const { base, admin } = await accounts();
    const bad = await send(admin, 'POST', `${base}/employees`, {
      first_name: ' ',
      last_name: 'Lee',
      email: 'x',
    });
    expect(bad.json()).toEqual(
      validationFailedBody({ first_name: ['must not be empty'], email: ['must be a valid email address'] }),
    );
    const created = await send(admin, 'POST', `${base}/employees`, ann);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject(ann);
    const again = await send(admin, 'POST', `${base}/employees`, { ...ann, email: 'ANN.LEE@example.com' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'Email already exists', status: 409, ...coded('email_taken') });
  });
});

describe('GET, PATCH and DELETE …/employees/{id}', () => {
  it('shows an employee with its groups', async () => {
    const { mine, base, admin } = await accounts();
    const lee = await makeEmployee(t.app, mine, ann);
    const group = await makeGroup(t.app, mine, 'Sales');
    await addGroupMembers(t.app.db, mine, group.id, [lee.id]);
    const res = await send(admin, 'GET', `${base}/employees/${lee.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ...ann, id: lee.id, groups: [{ id: group.id, name: 'Sales' }] });
  });

  it('changes the fields sent, with the create rules', async () => {
    const { mine, base, admin } = await accounts();
    const lee = await makeEmployee(t.app, mine, ann);
    await makeEmployee(t.app, mine, { email: 'taken@example.com' });
    const wrongType = await send(admin, 'PATCH', `${base}/employees/${lee.id}`, { email: 5 });
    expect(wrongType.json()).toEqual(validationFailedBody({ email: ['must be a string'] }));
    const invalid = await send(admin, 'PATCH', `${base}/employees/${lee.id}`, { last_name: '' });
    expect(invalid.json().details).toEqual({ last_name: ['must not be empty'] });
    const taken = await send(admin, 'PATCH', `${base}/employees/${lee.id}`, { email: 'Taken@example.com' });
    expect(taken.statusCode).toBe(409);
    const ok = await send(admin, 'PATCH', `${base}/employees/${lee.id}`, { last_name: 'Lee-Smith' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ ...ann, last_name: 'Lee-Smith' });
  });

  it('deletes an employee, who leaves its groups: the Customer API shows a new count and ETag', async () => {
    const { mine, base, admin } = await accounts();
    const { key } = await makeKey(t.app, { accountId: mine });
    const lee = await makeEmployee(t.app, mine, ann);
    const bo = await makeEmployee(t.app, mine);
    const group = await makeGroup(t.app, mine);
    await addGroupMembers(t.app.db, mine, group.id, [lee.id, bo.id]);
    const api = client(t.app, key);
    const before = await api.get(`/customer/groups/${group.id}/`);
    const res = await send(admin, 'DELETE', `${base}/employees/${lee.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const after = await api.get(`/customer/groups/${group.id}/`);
    expect(after.json()).toMatchObject({ employee_count: 1, employees: [{ id: bo.id }] });
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect((await send(admin, 'GET', `${base}/employees/${lee.id}`)).statusCode).toBe(404);
  });
});

describe('POST …/employees/import', () => {
  it('refuses more than 1000 rows, and rows that are not objects', async () => {
    const { base, admin } = await accounts();
    const many = Array.from({ length: 1001 }, (_, i) => ({ ...ann, email: `p${i}@example.com` }));
    const tooMany = await send(admin, 'POST', `${base}/employees/import`, { rows: many });
    expect(tooMany.json()).toEqual(validationFailedBody({ rows: ['must have at most 1000 entries'] }));
    const notRows = await send(admin, 'POST', `${base}/employees/import`, { rows: ['a'], dry_run: 'yes' });
    expect(notRows.json().details).toEqual({
      rows: ['each entry must be an object'],
      dry_run: ['must be a boolean'],
    });
  });

  it('reports each row, then creates them; 1000 rows fit in one request', async () => {
    const { mine, base, admin } = await accounts();
    const kept = await makeEmployee(t.app, mine, { email: 'kept@example.com' });
    const rows = [ann, { ...ann, email: 'KEPT@example.com' }, { first_name: 'Bo' }, ann];
    const dry = await send(admin, 'POST', `${base}/employees/import`, { rows, dry_run: true });
    expect(dry.json()).toEqual({
      created: 0,
      results: [
        { status: 'would_create' },
        { status: 'exists', id: kept.id },
        { status: 'invalid', errors: { last_name: ['is required'], email: ['is required'] } },
        { status: 'duplicate' },
      ],
    });
    const done = await send(admin, 'POST', `${base}/employees/import`, { rows });
    expect(done.json().created).toBe(1);
    expect(done.json().results.map((r: { status: string }) => r.status)).toEqual([
      'created',
      'exists',
      'invalid',
      'duplicate',
    ]);

    const many = Array.from({ length: 1000 }, (_, i) => ({
      first_name: `First ${i}`,
      last_name: `Last ${i}`,
      email: `person.${i}@example.com`,
    }));
    const big = await send(admin, 'POST', `${base}/employees/import`, { rows: many, dry_run: false });
    expect(big.statusCode).toBe(200);
    expect(big.json().created).toBe(1000);
    expect((await send(admin, 'GET', `${base}/employees`)).json().count).toBe(1002);
  });
});

describe('GET …/employees/export.csv', () => {
  it('downloads every employee as CSV, formulas defused', async () => {
    const { mine, base, admin } = await accounts();
    const lee = await makeEmployee(t.app, mine, ann);
    const formula = await makeEmployee(t.app, mine, {
      first_name: '=1+1',
      last_name: 'Doe, Jr',
      email: 'f@example.com',
    });
    const res = await send(admin, 'GET', `${base}/employees/export.csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="employees.csv"');
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf])); // for Excel
    expect(parse(res.body, { bom: true })).toEqual([
      ['id', 'first_name', 'last_name', 'email', 'created_at'],
      [String(lee.id), 'Ann', 'Lee', 'ann.lee@example.com', new Date(lee.created_at).toISOString()],
      [String(formula.id), "'=1+1", 'Doe, Jr', 'f@example.com', new Date(formula.created_at).toISOString()],
    ]);
  });

  it('writes names with accents in UTF-8 after its byte-order mark, as Excel needs to show them', async () => {
    const { mine, base, admin } = await accounts();
    await makeEmployee(t.app, mine, { first_name: 'João', last_name: 'Öztürk', email: 'jo@example.com' });
    const res = await send(admin, 'GET', `${base}/employees/export.csv`);
    const bytes = res.rawPayload;
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(bytes.includes(Buffer.from('João,Öztürk', 'utf8'))).toBe(true);
  });
});
