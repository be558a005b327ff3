import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../../core/db/database.js';
import type {
  AccountRole,
  AdminUsersTable,
  SsoConnectionsTable,
  SsoRequestsTable,
} from '../../../core/db/schema.js';

export type SsoConnectionRow = Selectable<SsoConnectionsTable>;
export type SsoRequestRow = Selectable<SsoRequestsTable>;
export type SsoAdminRow = Selectable<AdminUsersTable>;

export function findConnection(db: Db, accountId: number): Promise<SsoConnectionRow | undefined> {
  return db.selectFrom('sso_connections').selectAll().where('account_id', '=', accountId).executeTakeFirst();
}

export async function insertConnection(db: Db, values: Insertable<SsoConnectionsTable>): Promise<void> {
  await db.insertInto('sso_connections').values(values).execute();
}

export async function updateConnection(
  db: Db,
  accountId: number,
  values: Updateable<SsoConnectionsTable>,
): Promise<void> {
  await db.updateTable('sso_connections').set(values).where('account_id', '=', accountId).execute();
}

export async function deleteConnection(db: Db, accountId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('sso_connections')
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A sign-in under way; old ones (any account's) are forgotten on the way. */
export async function insertRequest(db: Db, values: Insertable<SsoRequestsTable>): Promise<void> {
  await db.deleteFrom('sso_requests').where('expires_at', '<=', values.created_at).execute();
  await db.insertInto('sso_requests').values(values).execute();
}

export function findRequest(db: Db, accountId: number, idHash: string): Promise<SsoRequestRow | undefined> {
  return db
    .selectFrom('sso_requests')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id_hash', '=', idHash)
    .executeTakeFirst();
}

/** Takes a sign-in under way: true for the one caller that deleted it (single use). */
export async function takeRequest(db: Db, accountId: number, idHash: string): Promise<boolean> {
  const result = await db
    .deleteFrom('sso_requests')
    .where('account_id', '=', accountId)
    .where('id_hash', '=', idHash)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/**
 * Remembers a SAML assertion's id until it expires: false when it was already there (a replay).
 * The primary key decides, so two concurrent posts of one assertion cannot both pass.
 */
export async function rememberAssertion(
  db: Db,
  accountId: number,
  assertionId: string,
  expiresAt: number,
  now: number,
): Promise<boolean> {
  await db.deleteFrom('sso_assertions').where('expires_at', '<=', now).execute();
  const result = await db
    .insertInto('sso_assertions')
    .values({ account_id: accountId, assertion_id: assertionId, expires_at: expiresAt })
    .onConflict((oc) => oc.columns(['account_id', 'assertion_id']).doNothing())
    .returning('assertion_id')
    .executeTakeFirst();
  return result !== undefined;
}

/** Cross-account by design: one address signs in to one administrator across the service. */
export function findAdminByNormalizedEmail(
  db: Db,
  emailNormalized: string,
): Promise<SsoAdminRow | undefined> {
  return db
    .selectFrom('admin_users')
    .selectAll()
    .where('email_normalized', '=', emailNormalized)
    .executeTakeFirst();
}

export function insertSsoAdmin(
  db: Db,
  accountId: number,
  values: {
    email: string;
    email_normalized: string;
    name: string;
    password_hash: string;
    account_role: AccountRole;
    at: number;
  },
): Promise<SsoAdminRow> {
  return db
    .insertInto('admin_users')
    .values({
      email: values.email,
      email_normalized: values.email_normalized,
      name: values.name,
      password_hash: values.password_hash,
      role: 'account_admin',
      account_id: accountId,
      account_role: values.account_role,
      created_at: values.at,
      updated_at: values.at,
      last_sign_in_at: values.at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateSsoAdmin(
  db: Db,
  accountId: number,
  adminId: number,
  values: Updateable<AdminUsersTable>,
): Promise<void> {
  await db
    .updateTable('admin_users')
    .set(values)
    .where('account_id', '=', accountId)
    .where('id', '=', adminId)
    .execute();
}

export function findAccountAdmin(
  db: Db,
  accountId: number,
  adminId: number,
): Promise<SsoAdminRow | undefined> {
  return db
    .selectFrom('admin_users')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', adminId)
    .executeTakeFirst();
}

/** The account's break-glass owners (enabled ones). */
export function listBreakGlassOwners(db: Db, accountId: number): Promise<SsoAdminRow[]> {
  return db
    .selectFrom('admin_users')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('break_glass', '=', 1)
    .where('account_role', '=', 'owner')
    .where('disabled_at', 'is', null)
    .orderBy('id')
    .execute();
}

/** Whether this assertion id was already used (and is still remembered). */
export async function assertionKnown(db: Db, accountId: number, assertionId: string): Promise<boolean> {
  const row = await db
    .selectFrom('sso_assertions')
    .select('assertion_id')
    .where('account_id', '=', accountId)
    .where('assertion_id', '=', assertionId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Cross-account by design: the enabled connections whose allowed domains may hold this one (a
 * valid domain: no LIKE wildcard in it; the caller checks exactly).
 */
export function findConnectionsAllowingDomain(db: Db, domain: string): Promise<SsoConnectionRow[]> {
  return db
    .selectFrom('sso_connections')
    .selectAll()
    .where('enabled', '=', 1)
    .where('allowed_domains', 'like', `%${JSON.stringify(domain)}%`)
    .limit(10)
    .execute();
}

/** The account's owners (enabled ones), for naming break-glass owners. */
export function listOwners(db: Db, accountId: number): Promise<SsoAdminRow[]> {
  return db
    .selectFrom('admin_users')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('account_role', '=', 'owner')
    .where('disabled_at', 'is', null)
    .orderBy('id')
    .execute();
}
