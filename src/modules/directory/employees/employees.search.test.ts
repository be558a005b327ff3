import { CompiledQuery, sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { makeEmployee, makeGroup, makeKey, seedEmployees } from '../../../../test/helpers/factories.js';
import { byName } from '../../../core/db/collation.js';
import { dialectOf } from '../../../core/db/database.js';
import { replaceMembership } from '../groups/groups.membership.commands.js';
import { groupMembersPage } from '../groups/groups.service.js';
import { type Employee, type EmployeeQuery, searchEmployees, updateEmployee } from './employees.service.js';

// Searching, sorting and paging an account's employees (the web interface's employee list).

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

async function accountWith(people: Array<[string, string, string]>) {
  const { accountId } = await makeKey(t.app);
  const employees = [];
  for (const [first_name, last_name, email] of people)
    employees.push(await makeEmployee(t.app, accountId, { first_name, last_name, email }));
  return { accountId, employees };
}

const PEOPLE: Array<[string, string, string]> = [
  ['Ann', 'Lee', 'ann.lee@example.com'],
  ['bo', 'smith', 'bo@example.com'],
  ['Cy', 'Smithers', 'cy@example.org'],
  ['Dee', 'Jones', 'DSmith@Example.com'],
  ['Al', 'Lee', 'al.lee@example.com'],
  ['Ma_ry', '100% Real', 'mary@example.com'],
];

async function names(accountId: number, query: EmployeeQuery, window = { limit: 25, offset: 0 }) {
  const page = await searchEmployees(t.app.db, accountId, query, window);
  return { count: page.count, names: page.items.map((e) => `${e.first_name} ${e.last_name}`) };
}

describe('searchEmployees', () => {
  it('sorts by last name, then first name, case-insensitively, by default', async () => {
    const { accountId } = await accountWith(PEOPLE);
    await accountWith([['Zed', 'Other', 'zed@example.com']]);
    expect(await names(accountId, {})).toEqual({
      count: 6,
      names: ['Ma_ry 100% Real', 'Dee Jones', 'Al Lee', 'Ann Lee', 'bo smith', 'Cy Smithers'],
    });
  });

  it('sorts by first name, email or creation, either way', async () => {
    const { accountId } = await accountWith(PEOPLE);
    // These people's first names and addresses happen to sort alike.
    const alphabetical = ['Al Lee', 'Ann Lee', 'bo smith', 'Cy Smithers', 'Dee Jones', 'Ma_ry 100% Real'];
    expect((await names(accountId, { sort: 'first_name' })).names).toEqual(alphabetical);
    expect((await names(accountId, { sort: 'first_name', order: 'desc' })).names[0]).toBe('Ma_ry 100% Real');
    expect((await names(accountId, { sort: 'email' })).names).toEqual(alphabetical);
    const created = PEOPLE.map(([f, l]) => `${f} ${l}`);
    expect((await names(accountId, { sort: 'created_at' })).names).toEqual(created);
    expect((await names(accountId, { sort: 'created_at', order: 'desc' })).names).toEqual(created.reverse());
  });

  it('orders equal names by id', async () => {
    const { accountId, employees } = await accountWith([
      ['Sam', 'Same', 'sam1@example.com'],
      ['sam', 'SAME', 'sam2@example.com'],
      ['Sam', 'same', 'sam3@example.com'],
    ]);
    const asc = await searchEmployees(t.app.db, accountId, {}, { limit: 25, offset: 0 });
    expect(asc.items.map((e) => e.id)).toEqual(employees.map((e) => e.id));
    const desc = await searchEmployees(t.app.db, accountId, { order: 'desc' }, { limit: 25, offset: 0 });
    expect(desc.items.map((e) => e.id)).toEqual(employees.map((e) => e.id).reverse());
  });

  it('finds a case-insensitive substring of the first, last or full name or of the address', async () => {
    const { accountId } = await accountWith(PEOPLE);
    expect(await names(accountId, { search: 'SMITH' })).toEqual({
      count: 3,
      names: ['Dee Jones', 'bo smith', 'Cy Smithers'],
    });
    expect((await names(accountId, { search: '  ann LEE ' })).names).toEqual(['Ann Lee']);
    expect((await names(accountId, { search: 'example.org' })).names).toEqual(['Cy Smithers']);
    expect((await names(accountId, { search: 'al' })).names).toEqual(['Ma_ry 100% Real', 'Al Lee']);
    expect((await names(accountId, { search: 'nobody' })).count).toBe(0);
    expect((await names(accountId, { search: '' })).count).toBe(6);
  });

  it('finds any script case-insensitively, and Latin, Greek and Cyrillic letters without their accents', async () => {
    const { accountId } = await accountWith([
      ['Ayşe', 'Öztürk', 'ayse@example.com'],
      ['Émile', 'Zola', 'emile@example.fr'],
      ['Jürgen', 'Straße', 'JUERGEN@EXAMPLE.DE'],
      ['Νίκος', 'Οδυσσεύς', 'nikos@example.gr'],
      ['Дмитрий', 'Фёдоров', 'dmitry@example.ru'],
      ['太郎', '山田', 'taro@example.jp'],
      ['민준', '김', 'minjun@example.kr'],
      ['Łukasz', 'Søren', 'lukasz@example.pl'],
    ]);
    const found = async (search: string) => (await names(accountId, { search })).names;
    expect(await found('öztürk')).toEqual(['Ayşe Öztürk']);
    expect(await found('ÖZTÜRK')).toEqual(['Ayşe Öztürk']);
    expect(await found('ozturk')).toEqual(['Ayşe Öztürk']);
    expect(await found('ayse ozt')).toEqual(['Ayşe Öztürk']);
    expect(await found('ÉMILE')).toEqual(['Émile Zola']);
    expect(await found('emile')).toEqual(['Émile Zola']);
    expect(await found('E\u0301mile')).toEqual(['Émile Zola']);
    expect(await found('STRASSE')).toEqual(['Jürgen Straße']);
    expect(await found('straße')).toEqual(['Jürgen Straße']);
    expect(await found('juergen@')).toEqual(['Jürgen Straße']);
    expect(await found('ΟΔΥΣΣΕΎΣ')).toEqual(['Νίκος Οδυσσεύς']);
    expect(await found('νικος')).toEqual(['Νίκος Οδυσσεύς']);
    expect(await found('ДМИТРИЙ')).toEqual(['Дмитрий Фёдоров']);
    expect(await found('федоров')).toEqual(['Дмитрий Фёдоров']);
    expect(await found('山田')).toEqual(['太郎 山田']);
    expect(await found('김')).toEqual(['민준 김']);
    expect(await found('lukasz soren')).toEqual(['Łukasz Søren']);
    // A search never spans the name and the address.
    expect((await names(accountId, { search: 'zola emile@' })).count).toBe(0);
  });

  it('finds an employee by the new name after a change of either name or the address', async () => {
    const { accountId, employees } = await accountWith([['Emil', 'Lee', 'e.lee@example.com']]);
    const [emil] = employees;
    await updateEmployee(t.app.db, accountId, emil!.id, { first_name: 'Émilie' });
    await updateEmployee(t.app.db, accountId, emil!.id, { last_name: 'Öz' });
    await updateEmployee(t.app.db, accountId, emil!.id, { email: 'Ö.Z@example.com' });
    expect((await names(accountId, { search: 'emilie oz' })).names).toEqual(['Émilie Öz']);
    expect((await names(accountId, { search: 'ö.z@' })).names).toEqual(['Émilie Öz']);
    expect((await names(accountId, { search: 'lee' })).count).toBe(0);
  });

  it('takes %, _ and \\ in the search literally', async () => {
    const { accountId } = await accountWith([...PEOPLE, ['Back', 'Sl\\ash', 'slash@example.com']]);
    expect((await names(accountId, { search: '_' })).names).toEqual(['Ma_ry 100% Real']);
    expect((await names(accountId, { search: '0%' })).names).toEqual(['Ma_ry 100% Real']);
    expect((await names(accountId, { search: '%' })).names).toEqual(['Ma_ry 100% Real']);
    expect((await names(accountId, { search: '\\' })).names).toEqual(['Back Sl\\ash']);
    expect((await names(accountId, { search: 'a\u0000' })).count).toBe(0);
  });

  it('pages, counting every match; a page past the last is empty with the right count', async () => {
    const { accountId } = await accountWith(PEOPLE);
    expect(await names(accountId, {}, { limit: 2, offset: 2 })).toEqual({
      count: 6,
      names: ['Al Lee', 'Ann Lee'],
    });
    expect(await names(accountId, {}, { limit: 4, offset: 4 })).toEqual({
      count: 6,
      names: ['bo smith', 'Cy Smithers'],
    });
    expect(await names(accountId, { search: 'smith' }, { limit: 2, offset: 2 })).toEqual({
      count: 3,
      names: ['Cy Smithers'],
    });
    expect(await names(accountId, {}, { limit: 25, offset: 50 })).toEqual({ count: 6, names: [] });
    expect(await names(accountId, { search: 'lee' }, { limit: 25, offset: 25 })).toEqual({
      count: 2,
      names: [],
    });
    expect(await names(accountId, {}, { limit: 200, offset: 2 ** 60 })).toEqual({ count: 6, names: [] });
  });
});

describe('searchEmployees, page by page', () => {
  it('gives the same order as sorting everything, on every page, whichever way a page is read', async () => {
    const { accountId } = await makeKey(t.app);
    const firsts = ['Ann', 'ann', 'Bo', 'Cy', 'Dee'];
    const lasts = ['Smith', 'smithers', 'Lee', 'Adams', 'Zed', 'Ng'];
    const made: Employee[] = [];
    for (let i = 0; i < 48; i++) {
      const fields = {
        first_name: firsts[i % 5]!,
        last_name: lasts[(i * 7) % 6]!,
        email: `p${(i * 37) % 48}x${i}@example.com`,
      };
      made.push(await makeEmployee(t.app, accountId, fields));
    }
    const keys: Record<string, (e: Employee) => Array<string | number>> = {
      last_name: (e) => [e.last_name.toLowerCase(), e.first_name.toLowerCase(), e.id],
      first_name: (e) => [e.first_name.toLowerCase(), e.last_name.toLowerCase(), e.id],
      email: (e) => [e.email_normalized, e.id],
      created_at: (e) => [e.id],
    };
    const compare = (a: Array<string | number>, b: Array<string | number>) => {
      for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
      return 0;
    };
    for (const search of [undefined, 'smith', 'ann', 'x4@']) {
      const pattern = search?.toLowerCase();
      const matches = made.filter(
        (e) =>
          !pattern ||
          `${e.first_name} ${e.last_name}`.toLowerCase().includes(pattern) ||
          e.email_normalized.includes(pattern),
      );
      for (const sort of ['last_name', 'first_name', 'email', 'created_at'] as const) {
        for (const order of ['asc', 'desc'] as const) {
          const expected = [...matches].sort((a, b) => compare(keys[sort]!(a), keys[sort]!(b)));
          if (order === 'desc') expected.reverse();
          for (const size of [5, 7, 48]) {
            const ids = [];
            for (let offset = 0; offset < matches.length + size; offset += size) {
              const page = await searchEmployees(
                t.app.db,
                accountId,
                { search, sort, order },
                { limit: size, offset },
              );
              expect(page.count).toBe(matches.length);
              ids.push(...page.items.map((e) => e.id));
            }
            expect(ids, `${search} ${sort} ${order} ${size}`).toEqual(expected.map((e) => e.id));
          }
        }
      }
    }
    // A group's members, by last name: SQLite walks the name index for a group of most of the
    // account and sorts a group of a few (walkBeatsSort); both give the one order.
    for (const every of [1, 16]) {
      const members = made.filter((_, i) => i % every === 0);
      const group = await makeGroup(t.app, accountId);
      await replaceMembership(t.app.db, {
        accountId,
        groupId: group.id,
        employeeIds: members.map((e) => e.id),
      });
      for (const search of [undefined, 'smith']) {
        const pattern = search?.toLowerCase();
        const expected = members
          .filter((e) => !pattern || `${e.first_name} ${e.last_name}`.toLowerCase().includes(pattern))
          .sort((a, b) => compare(keys.last_name!(a), keys.last_name!(b)));
        for (const size of [1, 5, 48]) {
          const ids = [];
          for (let offset = 0; offset < expected.length + size; offset += size) {
            const page = await groupMembersPage(
              t.app.db,
              accountId,
              group.id,
              { search },
              { limit: size, offset },
            );
            expect(page.count).toBe(expected.length);
            ids.push(...page.items.map((e) => e.id));
          }
          expect(ids, `every ${every}, ${search}, ${size}`).toEqual(expected.map((e) => e.id));
        }
      }
    }
  });
});

describe('a group of most of a big account, and a group of a few', () => {
  it('pages both in one order: SQLite walks the name index for the first, sorts the second', async () => {
    const { accountId } = await makeKey(t.app);
    const ids = await seedEmployees(t.app, accountId, 1200);
    const rows = await t.app.db
      .selectFrom('employees')
      .select(['id', 'first_name', 'last_name'])
      .where('account_id', '=', accountId)
      .execute();
    const key = (e: (typeof rows)[number]) =>
      `${e.last_name.toLowerCase()}\u0001${e.first_name.toLowerCase()}`;
    // More than walkBeatsSort sorts at once (1,000), and few enough for a handful.
    for (const members of [ids.filter((_, i) => i % 12 !== 0), [ids[5]!, ids[500]!, ids[1100]!]]) {
      const group = await makeGroup(t.app, accountId);
      await replaceMembership(t.app.db, { accountId, groupId: group.id, employeeIds: members });
      const wanted = new Set(members);
      const expected = rows
        .filter((e) => wanted.has(e.id))
        .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id - b.id))
        .map((e) => e.id);
      const seen = [];
      for (let offset = 0; offset < expected.length; offset += 100) {
        const page = await groupMembersPage(t.app.db, accountId, group.id, {}, { limit: 100, offset });
        expect(page.count).toBe(expected.length);
        seen.push(...page.items.map((e) => e.id));
      }
      expect(seen).toEqual(expected);
    }
  });
});

describe('a list by name at any size', () => {
  // Names sort as people read them (core/db/collation.ts), and migration 0020 indexes exactly those
  // expressions: an unfiltered page by name is a walk along an index, never a sort of the account
  // (with 100,000 employees that sort held the server 164–428 ms a page on SQLite).
  it.each([
    ['last_name', 'first_name', 'employees_account_last_name_key_idx'],
    ['first_name', 'last_name', 'employees_account_first_name_key_idx'],
  ] as const)('orders by %s along the index the migration made, either way', async (first, second, index) => {
    const db = t.app.db;
    for (const direction of ['asc', 'desc'] as const) {
      const query = db
        .selectFrom('employees')
        .selectAll()
        .where('account_id', '=', 1)
        .orderBy(byName(db, first), direction)
        .orderBy(byName(db, second), direction)
        .orderBy('id', direction)
        .limit(25)
        .compile();
      const plan = await db.transaction().execute(async (trx) => {
        if (dialectOf(db) === 'postgres') {
          // A small table is cheaper to sort than to walk: tell the planner sorting is out.
          await sql`set local enable_sort = off`.execute(trx);
          await sql`set local enable_seqscan = off`.execute(trx);
          const rows = await trx.executeQuery(
            CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]),
          );
          return rows.rows.map((r) => Object.values(r as object)[0]).join('\n');
        }
        const rows = await trx.executeQuery(
          CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
        );
        return rows.rows.map((r) => (r as { detail: string }).detail).join('\n');
      });
      expect(plan, direction).toContain(index);
      expect(plan, direction).not.toMatch(/TEMP B-TREE|Sort/);
    }
  });
});
