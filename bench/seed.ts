import { sql } from 'kysely';
import { parseGrants } from '../src/core/auth/permissions.js';
import { type Db, type Dialect, openDatabase } from '../src/core/db/database.js';
import { migrateToLatest } from '../src/core/db/migrate.js';
import { createAccount } from '../src/modules/access/accounts/accounts.service.js';
import { createKey, MAX_RATE_LIMIT } from '../src/modules/access/keys/keys.service.js';
import { replaceMembership } from '../src/modules/directory/groups/groups.membership.commands.js';
import { createGroup } from '../src/modules/directory/groups/groups.service.js';
import { createThrowawayDatabase } from '../test/helpers/database.js';
import { insertEmployees } from './employees.js';
import { TMP } from './processes.js';

export const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export interface BenchDatabase {
  dialect: Dialect;
  /** DATABASE_URL of the fresh database. */
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database: a file under bench/.tmp, or a throwaway `vigil_bench_*` PostgreSQL database. */
export async function createBenchDatabase(dialect: Dialect, postgresUrl: string): Promise<BenchDatabase> {
  const created = await createThrowawayDatabase({
    postgresUrl: dialect === 'postgres' ? postgresUrl : undefined,
    prefix: 'vigil_bench',
    parentDir: TMP,
  });
  return { dialect, ...created };
}

export const SCENARIO_KEYS = ['groups', 'email', 'detail', 'create', 'replace'] as const;
export type ScenarioKey = (typeof SCENARIO_KEYS)[number];

export interface Seeded {
  /** One API key per scenario (all grants, the largest budget), so no scenario eats another's budget. */
  keys: Record<ScenarioKey, string>;
  employeeIds: number[];
  employeeEmails: string[];
  groupCount: number;
  /** The group of 10,000 members. */
  bigGroupId: number;
  bigGroupSize: number;
  /** An empty group the 100,000-id PUT replaces. */
  replaceGroupId: number;
}

export interface SeedSize {
  employees: number;
  groups: number;
  bigGroupMembers: number;
}

/** The account's `count` employees, `employee.<i>@bench.example.com`, in one transaction. */
async function insertBenchEmployees(db: Db, accountId: number, count: number) {
  const email = (i: number) => `employee.${i}@bench.example.com`;
  const ids = await db.transaction().execute((trx) =>
    insertEmployees(trx, accountId, count, (i) => ({
      first_name: `First${i}`,
      last_name: `Last${i}`,
      email: email(i),
    })),
  );
  return { ids, emails: Array.from({ length: count }, (_, i) => email(i)) };
}

/**
 * Migrates and fills a fresh database: one account, its keys, employees by bulk insert,
 * groups, one big group through the real membership service; then planner statistics, as
 * autovacuum would gather soon after a real import.
 */
export async function seed(url: string, size: SeedSize): Promise<Seeded> {
  const database = openDatabase(url);
  try {
    const db = database.db;
    await migrateToLatest(db);
    const account = await createAccount(db, { name: 'Bench account' });
    const keys = {} as Record<ScenarioKey, string>;
    for (const scenario of SCENARIO_KEYS) {
      const created = await createKey(db, {
        accountId: account.id,
        name: `bench ${scenario}`,
        permissions: parseGrants(['employees:rw', 'groups:rw', 'campaigns:rw']),
        rateLimit: MAX_RATE_LIMIT,
      });
      keys[scenario] = created.key;
    }
    const { ids, emails } = await insertBenchEmployees(db, account.id, size.employees);
    const groupIds: number[] = [];
    for (let i = 0; i < size.groups; i++) {
      const group = await createGroup(db, account.id, {
        name: `Group ${i + 1}`,
        description: `Benchmark group number ${i + 1}`,
      });
      groupIds.push(group.id);
    }
    const [bigGroupId, replaceGroupId] = groupIds as [number, number];
    // Members spread over the whole table (every n-th employee), not one contiguous block.
    const stride = Math.max(1, Math.floor(ids.length / size.bigGroupMembers));
    const members = ids.filter((_, i) => i % stride === 0).slice(0, size.bigGroupMembers);
    await replaceMembership(db, { accountId: account.id, groupId: bigGroupId, employeeIds: members });
    await sql`analyze`.execute(db);
    return {
      keys,
      employeeIds: ids,
      employeeEmails: emails,
      groupCount: groupIds.length,
      bigGroupId,
      bigGroupSize: members.length,
      replaceGroupId,
    };
  } finally {
    await database.close();
  }
}
