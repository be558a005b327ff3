import { beforeAll, describe, expect, it } from 'vitest';
import { MALFORMED_EMAILS } from '../../../../test/helpers/addresses.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { coded, validationFailedBody } from '../../../../test/helpers/errors.js';
import { client, makeEmployee, makeKey } from '../../../../test/helpers/factories.js';
import { revokeKey } from '../../access/keys/keys.service.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const ISO_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function account(grants?: string[]) {
  const { accountId, key } = await makeKey(t.app, grants ? { grants } : {});
  return { accountId, key, api: client(t.app, key) };
}

/** A request without any key, as a client that forgot it would send. */
function anonymous(method: 'GET' | 'POST', url: string, headers: Record<string, string> = {}) {
  return t.app.inject({
    method,
    url: `/api/api_gateway${url}`,
    headers: { 'content-type': 'application/json', ...headers },
    ...(method === 'POST'
      ? { payload: JSON.stringify({ first_name: 'A', last_name: 'B', email: 'a@x.com' }) }
      : {}),
  });
}

const ann = { first_name: 'Ann', last_name: 'Lee', email: 'ann.lee@example.com' };

describe('authentication and permissions on /customer/employees/', () => {
  const routes: Array<['GET' | 'POST', string]> = [
    ['POST', '/customer/employees/'],
    ['GET', '/customer/employees/'],
    ['GET', '/customer/employees/1/'],
  ];

  it('answers 401 API key required without a key, or with an empty one', async () => {
    for (const [method, url] of routes) {
      for (const headers of [{}, { apikey: '' }, { apikey: '   ' }] as Record<string, string>[]) {
        const res = await anonymous(method, url, headers);
        expect(res.statusCode, `${method} ${url} ${JSON.stringify(headers)}`).toBe(401);
        expect(res.json()).toEqual({ error: 'API key required', status: 401 });
      }
    }
  });

  it('answers 401 Invalid API key for unknown, malformed, revoked and expired keys', async () => {
    const revoked = await makeKey(t.app);
    await revokeKey(t.app.db, revoked.accountId, revoked.keyId);
    const expired = await makeKey(t.app);
    await t.app.db
      .updateTable('api_keys')
      .set({ expires_at: Date.now() - 1000 })
      .where('id', '=', expired.keyId)
      .execute();
    const keys = [
      'not-a-key',
      `vgl_${'A'.repeat(40)}`,
      `VGL_${revoked.key.slice(4)}`,
      `${revoked.key}x`,
      revoked.key,
      expired.key,
    ];
    for (const key of keys) {
      for (const [method, url] of routes) {
        const res = await anonymous(method, url, { apikey: key });
        expect(res.statusCode, `${method} ${url} ${key}`).toBe(401);
        expect(res.json()).toEqual({ error: 'Invalid API key', status: 401 });
      }
    }
  });

  it('answers 403 naming the access point and right the key lacks', async () => {
    const readOnly = await account(['employees:r', 'groups:rw', 'campaigns:rw']);
    const post = await readOnly.api.post('/customer/employees/', ann);
    expect(post.statusCode).toBe(403);
    expect(post.json()).toEqual({ error: 'API key lacks write permission on employees', status: 403 });
    expect(post.headers['ratelimit-limit']).toBeDefined();

    const writeOnly = await account(['employees:w']);
    for (const url of ['/customer/employees/', '/customer/employees/1/']) {
      const res = await writeOnly.api.get(url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({ error: 'API key lacks read permission on employees', status: 403 });
    }

    const otherPoints = await account(['groups:rw', 'campaigns:rw']);
    const res = await otherPoints.api.get('/customer/employees/');
    expect(res.json()).toEqual({ error: 'API key lacks read permission on employees', status: 403 });
  });

  it('checks the permission before the body: a read-only key sending garbage still gets 403', async () => {
    const { api } = await account(['employees:r']);
    for (const body of ['{not json', { first_name: 1 }, '']) {
      const res = await api.post('/customer/employees/', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(403);
      expect(res.json()).toEqual({ error: 'API key lacks write permission on employees', status: 403 });
    }
  });

  it('a write-only key can create employees', async () => {
    const { api } = await account(['employees:w']);
    const res = await api.post('/customer/employees/', ann);
    expect(res.statusCode).toBe(201);
  });
});

describe('POST /customer/employees/', () => {
  it('creates the employee: 201, the Employee with ISO timestamps, and a Location naming it', async () => {
    const { api } = await account();
    const before = Date.now();
    const res = await api.post('/customer/employees/', ann, { host: 'vigil.example.com:8443' });
    const after = Date.now();
    expect(res.statusCode).toBe(201);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json();
    expect(body).toEqual({
      id: body.id,
      first_name: 'Ann',
      last_name: 'Lee',
      email: 'ann.lee@example.com',
      created_at: body.created_at,
      updated_at: body.created_at,
    });
    expect(Number.isInteger(body.id) && body.id > 0).toBe(true);
    expect(body.created_at).toMatch(ISO_MS_UTC);
    const created = Date.parse(body.created_at);
    expect(created).toBeGreaterThanOrEqual(before);
    expect(created).toBeLessThanOrEqual(after);
    expect(res.headers.location).toBe(
      `http://vigil.example.com:8443/api/api_gateway/customer/employees/${body.id}/`,
    );

    const read = await api.get(
      new URL(res.headers.location as string).pathname.replace('/api/api_gateway', ''),
    );
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(body);
  });

  it('trims every string and keeps the email as sent otherwise', async () => {
    const { api } = await account();
    const res = await api.post('/customer/employees/', {
      first_name: '  Ann ',
      last_name: '\tLee\n',
      email: '  Ann.Lee@Example.COM  ',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ first_name: 'Ann', last_name: 'Lee', email: 'Ann.Lee@Example.COM' });
  });

  it('ignores unknown fields, including ones that look like server-assigned fields', async () => {
    const { api } = await account();
    const res = await api.post('/customer/employees/', {
      ...ann,
      id: 987654,
      account_id: 1,
      created_at: '2000-01-01T00:00:00.000Z',
      role: 'admin',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.id).not.toBe(987654);
    expect(body.created_at).not.toBe('2000-01-01T00:00:00.000Z');
    expect(Object.keys(body).sort()).toEqual([
      'created_at',
      'email',
      'first_name',
      'id',
      'last_name',
      'updated_at',
    ]);
  });

  it('reports every missing field', async () => {
    const { api } = await account();
    const res = await api.post('/customer/employees/', {});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(
      validationFailedBody({
        first_name: ['is required'],
        last_name: ['is required'],
        email: ['is required'],
      }),
    );
  });

  it('rejects non-string values instead of converting them', async () => {
    const { api } = await account();
    const res = await api.post('/customer/employees/', {
      first_name: 1,
      last_name: null,
      email: ['a@x.com'],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(
      validationFailedBody({
        first_name: ['must be a string'],
        last_name: ['must be a string'],
        email: ['must be a string'],
      }),
    );
    for (const first_name of [true, {}, 12.5]) {
      const again = await api.post('/customer/employees/', { ...ann, first_name });
      expect(again.json(), JSON.stringify(first_name)).toEqual(
        validationFailedBody({ first_name: ['must be a string'] }),
      );
    }
  });

  it('rejects a body that is not an object', async () => {
    const { api } = await account();
    for (const body of ['[]', 'null', '"Ann"', '42']) {
      const res = await api.post('/customer/employees/', body);
      expect(res.statusCode, body).toBe(400);
      expect(res.json()).toEqual(validationFailedBody({ body: ['must be an object'] }));
    }
  });

  it('rejects empty and blank strings', async () => {
    const { api } = await account();
    const res = await api.post('/customer/employees/', { first_name: '', last_name: '   ', email: ' ' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(
      validationFailedBody({
        first_name: ['must not be empty'],
        last_name: ['must not be empty'],
        email: ['must not be empty'],
      }),
    );
  });

  it('accepts names of 150 characters (after trimming) and rejects 151', async () => {
    const { api } = await account();
    const ok = await api.post('/customer/employees/', {
      ...ann,
      first_name: ` ${'a'.repeat(150)} `,
      last_name: '😀'.repeat(150),
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({ first_name: 'a'.repeat(150), last_name: '😀'.repeat(150) });

    const tooLong = await api.post('/customer/employees/', {
      first_name: 'a'.repeat(151),
      last_name: '😀'.repeat(151),
      email: 'other@example.com',
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toEqual(
      validationFailedBody({
        first_name: ['must be at most 150 characters'],
        last_name: ['must be at most 150 characters'],
      }),
    );
  });

  it('rejects invalid email addresses, including a domain without a dot', async () => {
    const { api } = await account();
    for (const email of ['a@b', 'ann@localhost', ...MALFORMED_EMAILS]) {
      const res = await api.post('/customer/employees/', { ...ann, email });
      expect(res.statusCode, JSON.stringify(email)).toBe(400);
      expect(res.json()).toEqual(validationFailedBody({ email: ['must be a valid email address'] }));
    }
    const list = await api.get('/customer/employees/');
    expect(list.json().count).toBe(0);
  });

  it('accepts an address of 254 characters and rejects 255', async () => {
    const { api } = await account();
    const email = `${'a'.repeat(64)}@${['b'.repeat(63), 'c'.repeat(63), 'd'.repeat(57), 'com'].join('.')}`;
    expect(email).toHaveLength(254);
    const ok = await api.post('/customer/employees/', { ...ann, email });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().email).toBe(email);
    const tooLong = await api.post('/customer/employees/', { ...ann, email: `a${email}` });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toEqual(validationFailedBody({ email: ['must be at most 254 characters'] }));
  });

  it('answers 409 Email already exists for the same address in another case, and keeps the first', async () => {
    const { api } = await account();
    const first = await api.post('/customer/employees/', { ...ann, email: 'Ann@X.com' });
    expect(first.statusCode).toBe(201);
    for (const email of ['ann@x.com', 'ANN@X.COM', '  Ann@X.com  ']) {
      const dup = await api.post('/customer/employees/', { first_name: 'Other', last_name: 'Person', email });
      expect(dup.statusCode, email).toBe(409);
      expect(dup.json()).toEqual({ error: 'Email already exists', status: 409, ...coded('email_taken') });
    }
    const list = await api.get('/customer/employees/?email=ann@x.com');
    expect(list.json()).toEqual({ count: 1, next: null, previous: null, results: [first.json()] });
    expect(list.json().results[0].email).toBe('Ann@X.com');
  });

  it('lets another account use the same address', async () => {
    const mine = await account();
    const theirs = await account();
    expect((await mine.api.post('/customer/employees/', ann)).statusCode).toBe(201);
    const res = await theirs.api.post('/customer/employees/', { ...ann, email: ann.email.toUpperCase() });
    expect(res.statusCode).toBe(201);
    expect(res.json().email).toBe(ann.email.toUpperCase());
  });

  it('gives exactly one 201 and one 409 for two concurrent creates of one address', async () => {
    const { api } = await account();
    const [a, b] = await Promise.all([
      api.post('/customer/employees/', { ...ann, first_name: 'First' }),
      api.post('/customer/employees/', { ...ann, first_name: 'Second', email: ann.email.toUpperCase() }),
    ]);
    expect([a!.statusCode, b!.statusCode].sort()).toEqual([201, 409]);
    const loser = a!.statusCode === 409 ? a! : b!;
    expect(loser.json()).toEqual({ error: 'Email already exists', status: 409, ...coded('email_taken') });
    const list = await api.get('/customer/employees/');
    expect(list.json().count).toBe(1);
  });

  it('gives exactly one winner among many concurrent creates of one address', async () => {
    const { api } = await account();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => api.post('/customer/employees/', { ...ann, first_name: `N${i}` })),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
  });
});

describe('GET /customer/employees/', () => {
  it("lists only the account's employees, ordered by id", async () => {
    const mine = await account();
    const theirs = await account();
    await makeEmployee(t.app, theirs.accountId);
    const created = [];
    for (const name of ['Cleo', 'Ann', 'Bo']) {
      created.push(
        (
          await mine.api.post('/customer/employees/', { ...ann, first_name: name, email: `${name}@x.com` })
        ).json(),
      );
    }
    await makeEmployee(t.app, theirs.accountId);
    const res = await mine.api.get('/customer/employees/');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ count: 3, next: null, previous: null, results: created });
    const ids = created.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
  });

  it('is an empty page for an account without employees', async () => {
    const { api } = await account();
    const res = await api.get('/customer/employees/');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ count: 0, next: null, previous: null, results: [] });
  });

  it('filters by exact address, case-insensitively', async () => {
    const { api, accountId } = await account();
    const target = await makeEmployee(t.app, accountId, { email: 'Ann.Lee@Example.com' });
    await makeEmployee(t.app, accountId, { email: 'ann.lee@example.co' });
    await makeEmployee(t.app, accountId, { email: 'jo.ann.lee@example.com' });
    for (const email of ['ann.lee@example.com', 'ANN.LEE@EXAMPLE.COM', 'Ann.Lee@Example.com']) {
      const res = await api.get(`/customer/employees/?email=${encodeURIComponent(email)}`);
      expect(res.statusCode, email).toBe(200);
      expect(res.json()).toEqual({
        count: 1,
        next: null,
        previous: null,
        results: [
          {
            id: target.id,
            first_name: target.first_name,
            last_name: target.last_name,
            email: 'Ann.Lee@Example.com',
            created_at: new Date(target.created_at).toISOString(),
            updated_at: new Date(target.updated_at).toISOString(),
          },
        ],
      });
    }
  });

  it('matches addresses in any script case-insensitively, when creating and when filtering', async () => {
    const { api } = await account();
    for (const [email, others] of [
      ['Émile.Öztürk@Exämple.com', ['émile.öztürk@exämple.com', 'ÉMILE.ÖZTÜRK@EXÄMPLE.COM']],
      ['Δημήτρης@παράδειγμα.ελ', ['ΔΗΜΉΤΡΗΣ@ΠΑΡΆΔΕΙΓΜΑ.ΕΛ', 'δημήτρης@παράδειγμα.ελ']],
      ['Дмитрий@пример.рф', ['ДМИТРИЙ@ПРИМЕР.РФ', 'дмитрий@пример.рф']],
      ['山田@例え.jp', ['山田@例え.JP']],
    ] as const) {
      const created = await api.post('/customer/employees/', { first_name: 'A', last_name: 'B', email });
      expect(created.statusCode, email).toBe(201);
      for (const other of others) {
        const dup = await api.post('/customer/employees/', { first_name: 'C', last_name: 'D', email: other });
        expect(dup.statusCode, other).toBe(409);
        const found = await api.get(`/customer/employees/?email=${encodeURIComponent(other)}`);
        expect(found.json().results, other).toEqual([created.json()]);
      }
    }
  });

  it('finds nothing for partial, unknown or impossible addresses', async () => {
    const { api, accountId } = await account();
    await makeEmployee(t.app, accountId, { email: 'ann.lee@example.com' });
    for (const email of [
      'ann.lee',
      'example.com',
      'ann.lee@example.co',
      '%',
      'ann.lee@example.co_',
      '',
      'a\u0000b',
    ]) {
      const res = await api.get(`/customer/employees/?email=${encodeURIComponent(email)}`);
      expect(res.statusCode, email).toBe(200);
      expect(res.json()).toEqual({ count: 0, next: null, previous: null, results: [] });
    }
  });

  it("does not find another account's employee by email", async () => {
    const mine = await account();
    const theirs = await account();
    await makeEmployee(t.app, theirs.accountId, { email: 'secret@example.com' });
    const res = await mine.api.get('/customer/employees/?email=secret@example.com');
    expect(res.json()).toEqual({ count: 0, next: null, previous: null, results: [] });
  });
});

describe('GET /customer/employees/{id}/', () => {
  it('returns the employee', async () => {
    const { api } = await account();
    const created = (await api.post('/customer/employees/', ann)).json();
    const res = await api.get(`/customer/employees/${created.id}/`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(created);
    const noSlash = await api.get(`/customer/employees/${created.id}`);
    expect(noSlash.statusCode).toBe(200);
    expect(noSlash.json()).toEqual(created);
  });

  it("treats another account's employee, and non-numeric ids, as not found", async () => {
    const mine = await account();
    const theirs = await account();
    const other = await makeEmployee(t.app, theirs.accountId);
    const ids = [
      String(other.id),
      'abc',
      '0',
      '-1',
      '1.5',
      '1e3',
      '0x10',
      '%201',
      '99999999999999999999',
      '999999',
    ];
    for (const id of ids) {
      const res = await mine.api.get(`/customer/employees/${id}/`);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({
        error: 'Employee not found',
        status: 404,
        ...coded('employee_not_found'),
      });
    }
  });
});

describe('prototype keys in a body', () => {
  it('ignores __proto__ and constructor like any unknown field', async () => {
    const { key } = await makeKey(t.app);
    const res = await client(t.app, key).post(
      '/customer/employees/',
      '{"first_name":"Proto","last_name":"Type","email":"proto.type@example.com","__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}',
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      first_name: 'Proto',
      last_name: 'Type',
      email: 'proto.type@example.com',
    });
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});
