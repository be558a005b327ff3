import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminOfOneOfTwoAccounts, adminSender, signInAs } from './helpers/admin.js';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { makeAccount, makeEmployee, makeGroup } from './helpers/factories.js';

// Lists sorted by a name follow the order people read names in, on both databases: accents and
// case count only between names otherwise equal ("Öztürk" is among the O's, never after "Zoë"),
// and pages of such a list neither overlap nor skip anyone.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const send = (...args: Parameters<ReturnType<typeof adminSender>>) => adminSender(t.app)(...args);

const SURNAMES = ['Tester', 'Öztürk', 'zoë', 'João', 'Ávila', 'Oz', 'avila', 'Zimmer', 'Ozturk'];
/** Read as people read them: names otherwise equal, the one without accents first. */
const READ_IN_ORDER = ['avila', 'Ávila', 'João', 'Oz', 'Ozturk', 'Öztürk', 'Tester', 'Zimmer', 'zoë'];

const names = (body: { results: { last_name?: string; name?: string }[] }) =>
  body.results.map((r) => r.last_name ?? r.name);

describe('lists sorted by name', () => {
  it('lists employees by last or first name as people read them, ascending and descending, page by page', async () => {
    const { admin, base, mine } = await adminOfOneOfTwoAccounts(t.app);
    for (const last_name of SURNAMES) await makeEmployee(t.app, mine, { first_name: 'Ann', last_name });
    const all = await send(admin, 'GET', `${base}/employees?sort=last_name&order=asc&page_size=100`);
    expect(names(all.json())).toEqual(READ_IN_ORDER);
    const desc = await send(admin, 'GET', `${base}/employees?sort=last_name&order=desc&page_size=100`);
    expect(names(desc.json())).toEqual([...READ_IN_ORDER].reverse());

    // Pages of two, from both ends of the list (the last pages are read backwards): the same order.
    const paged: string[] = [];
    for (let page = 1; page <= 5; page++) {
      const res = await send(admin, 'GET', `${base}/employees?sort=last_name&page=${page}&page_size=2`);
      paged.push(...(names(res.json()) as string[]));
    }
    expect(paged).toEqual(READ_IN_ORDER);

    // A search sorts what it found the same way.
    const found = await send(admin, 'GET', `${base}/employees?search=ann&sort=last_name&page_size=100`);
    expect(names(found.json())).toEqual(READ_IN_ORDER);

    // By first name, then last name.
    await makeEmployee(t.app, mine, { first_name: 'Élodie', last_name: 'Zed' });
    await makeEmployee(t.app, mine, { first_name: 'Eva', last_name: 'Zed' });
    const byFirst = await send(admin, 'GET', `${base}/employees?sort=first_name&page_size=100`);
    const firsts = byFirst.json().results.map((e: { first_name: string }) => e.first_name);
    expect(firsts.slice(-3)).toEqual(['Ann', 'Élodie', 'Eva']);
  });

  it('lists groups by name as people read them, page by page', async () => {
    const { admin, base, mine } = await adminOfOneOfTwoAccounts(t.app);
    for (const name of SURNAMES) await makeGroup(t.app, mine, name);
    const groups = await send(admin, 'GET', `${base}/groups?page_size=100`);
    expect(names(groups.json())).toEqual(READ_IN_ORDER);
    const paged: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await send(admin, 'GET', `${base}/groups?page=${page}&page_size=4`);
      paged.push(...(names(res.json()) as string[]));
    }
    expect(paged).toEqual(READ_IN_ORDER);
  });

  it('lists accounts by name as people read them', async () => {
    const tag = randomBytes(4).toString('hex');
    for (const name of SURNAMES) await makeAccount(t.app, `${name} ${tag}`);
    const operator = await signInAs(t.app, { role: 'operator' });
    const res = await send(operator, 'GET', `/accounts?search=${tag}&page_size=100`);
    expect(names(res.json())).toEqual(READ_IN_ORDER.map((name) => `${name} ${tag}`));
  });
});
