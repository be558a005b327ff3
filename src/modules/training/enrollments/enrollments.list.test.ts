import { CompiledQuery, sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { makeAccount } from '../../../../test/helpers/factories.js';
import { makeActiveCampaign } from '../../../../test/helpers/mail-fixtures.js';
import { dialectOf } from '../../../core/db/database.js';
import { foldedContainsPattern } from '../../../core/db/like.js';
import { deleteEmployee } from '../../directory/employees/employees.service.js';
import {
  countEnrollments,
  type EnrollmentFilter,
  enrolledPeopleByName,
  readEnrollmentsByName,
} from './enrollments.repository.js';

// A training campaign's people in the web interface: by name, as people read names, then the
// deleted employees' records; every page of every size, filtered or not, is a slice of that one
// order, and the order is read along the name index, never sorted.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const PEOPLE = [
  { first_name: 'Zoë', last_name: 'Tester' },
  { first_name: 'Ann', last_name: 'Öztürk' },
  { first_name: 'bo', last_name: 'ávila' },
  { first_name: 'Cy', last_name: 'Ozturk' },
  { first_name: 'Al', last_name: 'Öztürk' },
  { first_name: 'Dee', last_name: 'Lee' },
  { first_name: 'Eve', last_name: 'Lee' },
  { first_name: 'Fay', last_name: 'Gone' },
  { first_name: 'Gus', last_name: 'Away' },
];
// By last name, then first name; accents count only between names otherwise equal.
const BY_NAME = ['bo ávila', 'Dee Lee', 'Eve Lee', 'Cy Ozturk', 'Al Öztürk', 'Ann Öztürk', 'Zoë Tester'];

async function campaignWithLeavers() {
  const account = await makeAccount(t.app);
  // Another account's campaign, made first, so its rows sit between none of ours by accident.
  await makeActiveCampaign(t.app.db, (await makeAccount(t.app)).id, { people: PEOPLE });
  const campaign = await makeActiveCampaign(t.app.db, account.id, { people: PEOPLE, invite: false });
  const idOf = (first: string) =>
    campaign.employeeIds[PEOPLE.findIndex((p) => p.first_name === first)] as number;
  // Fay and Gus leave; their enrollments stay, after everyone, by employee id.
  for (const first of ['Gus', 'Fay']) await deleteEmployee(t.app.db, account.id, idOf(first));
  // Some have started or finished: the status filter takes from both parts of the order.
  const enrollmentOf = (first: string) =>
    campaign.enrollmentIds[PEOPLE.findIndex((p) => p.first_name === first)] as number;
  const now = Date.now();
  for (const first of ['Eve', 'Ann', 'Fay'])
    await t.app.db
      .updateTable('enrollments')
      .set({ started_at: now })
      .where('id', '=', enrollmentOf(first))
      .execute();
  await t.app.db
    .updateTable('enrollments')
    .set({ started_at: now, completed_at: now, score: 90 })
    .where('id', '=', enrollmentOf('Dee'))
    .execute();
  const filter = (more: Partial<EnrollmentFilter> = {}): EnrollmentFilter => ({
    campaignId: campaign.campaignId,
    dueAt: null,
    now,
    ...more,
  });
  return { accountId: account.id, filter, gone: [idOf('Fay'), idOf('Gus')].sort((a, b) => a - b) };
}

const shown = (row: { first_name: string | null; last_name: string | null; employee_id: number }) =>
  row.first_name === null ? `deleted #${row.employee_id}` : `${row.first_name} ${row.last_name}`;

describe('a training campaign’s people by name', () => {
  it('lists people as people read names, then the deleted employees’ records by id, on pages of any size', async () => {
    const { accountId, filter, gone } = await campaignWithLeavers();
    const whole = [...BY_NAME, ...gone.map((id) => `deleted #${id}`)];
    const cases: Array<[Partial<EnrollmentFilter>, string[]]> = [
      [{}, whole],
      [{ status: 'in_progress' }, ['Eve Lee', 'Ann Öztürk', `deleted #${gone[0]}`]],
      [
        { status: 'not_started' },
        ['bo ávila', 'Cy Ozturk', 'Al Öztürk', 'Zoë Tester', `deleted #${gone[1]}`],
      ],
      [{ status: 'completed' }, ['Dee Lee']],
      // A search matches names and addresses, which a deleted employee no longer has.
      [{ pattern: foldedContainsPattern('OZTURK') as string }, ['Cy Ozturk', 'Al Öztürk', 'Ann Öztürk']],
      [{ pattern: foldedContainsPattern('nobody') as string }, []],
    ];
    for (const [more, expected] of cases) {
      const f = filter(more);
      expect(await countEnrollments(t.app.db, accountId, f), JSON.stringify(more)).toBe(expected.length);
      for (let size = 1; size <= expected.length + 1; size++) {
        const seen: string[] = [];
        for (let offset = 0; offset <= expected.length; offset += size) {
          const page = await readEnrollmentsByName(t.app.db, accountId, f, { limit: size, offset });
          expect(page.count).toBe(expected.length);
          expect(page.items.length, `${JSON.stringify(more)} ${size}@${offset}`).toBeLessThanOrEqual(size);
          seen.push(...page.items.map(shown));
        }
        expect(seen, `${JSON.stringify(more)}, pages of ${size}`).toEqual(expected);
      }
      // SQLite sorts instead of walking when few of the account are enrolled: the same order.
      const walked = await enrolledPeopleByName(t.app.db, accountId, f, 'walk').execute();
      const sorted = await enrolledPeopleByName(t.app.db, accountId, f, 'sort').execute();
      expect(sorted).toEqual(walked);
    }
  });

  it('shows nothing of a campaign to another account', async () => {
    const { filter } = await campaignWithLeavers();
    const stranger = await makeAccount(t.app);
    expect(await readEnrollmentsByName(t.app.db, stranger.id, filter(), { limit: 25, offset: 0 })).toEqual({
      count: 0,
      items: [],
    });
    expect(await countEnrollments(t.app.db, stranger.id, filter())).toBe(0);
  });

  it('reads the people along the name index, never sorting them', async () => {
    const { accountId, filter } = await campaignWithLeavers();
    const db = t.app.db;
    const query = enrolledPeopleByName(db, accountId, filter(), 'walk').limit(25).offset(50).compile();
    const plan = await db.transaction().execute(async (trx) => {
      if (dialectOf(db) === 'postgres') {
        // A small table is cheaper to sort than to walk: tell the planner sorting is out.
        await sql`set local enable_sort = off`.execute(trx);
        await sql`set local enable_seqscan = off`.execute(trx);
        const rows = await trx.executeQuery(CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]));
        return rows.rows.map((r) => Object.values(r as object)[0]).join('\n');
      }
      const rows = await trx.executeQuery(
        CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
      );
      return rows.rows.map((r) => (r as { detail: string }).detail).join('\n');
    });
    expect(plan).toContain('employees_account_last_name_key_idx');
    expect(plan).not.toMatch(/TEMP B-TREE|Sort/);
  });
});
