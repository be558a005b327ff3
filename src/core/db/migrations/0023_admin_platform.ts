import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';
import { dialectOf } from '../database.js';

// Issue 23: the admin platform (roles, sessions one can see and end, security settings, audit log).
//
// - `admin_users.account_role`: an account administrator's built-in role (owner, administrator,
//   campaign_manager, triage_analyst, auditor); null for operators. The account administrators
//   who exist now become owners, so nobody loses what they could do.
// - `admin_users.disabled_at`: a disabled administrator cannot sign in and has no session.
// - `admin_users.break_glass`: an owner who may still sign in with a password when the account
//   is "SSO only" (1 or 0).
// - `admin_role_groups`: the groups a role assignment is limited to; none: every group.
// - `admin_sessions.address`, `user_agent`, `method`: what the sessions page shows (where from,
//   which device, how they signed in: password, link, oidc, saml).
// - `account_security`: an account's sign-in and audit settings, one row made when first changed:
//   MFA required, SSO only, the role of administrators made at first SSO sign-in, how many days
//   the audit log is kept (null: 400; at least 180).
// - `audit_log`: every change, append-only, one hash chain per account (`account_id` 0: the
//   service's own, e.g. an operator creating an account). `seq` counts the chain from 1; `hash`
//   is SHA-256 over the previous row's hash and this row's canonical form.
// - `audit_heads`: the last `seq` and `hash` of each chain, locked by a writer, so concurrent
//   writers of one account take turns and the chain never forks.

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const ref = postgres ? 'bigint' : 'integer';
  const id = (col: ColumnDefinitionBuilder) =>
    postgres ? col.primaryKey().generatedAlwaysAsIdentity() : col.primaryKey().autoIncrement();

  await db.schema.alterTable('admin_users').addColumn('account_role', 'text').execute();
  await sql`update admin_users set account_role = 'owner' where role = 'account_admin'`.execute(db);
  await db.schema.alterTable('admin_users').addColumn('disabled_at', 'bigint').execute();
  await db.schema
    .alterTable('admin_users')
    .addColumn('break_glass', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('admin_role_groups')
    .addColumn('account_id', ref, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('admin_id', ref, (c) => c.notNull().references('admin_users.id').onDelete('cascade'))
    .addColumn('group_id', ref, (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('admin_role_groups_pk', ['admin_id', 'group_id'])
    .execute();
  await sql`create index admin_role_groups_group_idx on admin_role_groups (group_id)`.execute(db);

  for (const column of ['address', 'user_agent', 'method']) {
    await db.schema.alterTable('admin_sessions').addColumn(column, 'text').execute();
  }

  await db.schema
    .createTable('account_security')
    .addColumn('account_id', ref, (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('require_mfa', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sso_only', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('default_role', 'text', (c) => c.notNull().defaultTo('campaign_manager'))
    .addColumn('audit_retention_days', 'integer')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', postgres ? 'bigint' : 'integer', id)
    .addColumn('account_id', ref, (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('actor_kind', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_label', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('request_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('object_type', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text')
    .addColumn('object_label', 'text')
    .addColumn('changes', 'text')
    .addColumn('prev_hash', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addUniqueConstraint('audit_log_seq_uq', ['account_id', 'seq'])
    .execute();
  await sql`create index audit_log_time_idx on audit_log (account_id, at, id)`.execute(db);
  await sql`create index audit_log_action_idx on audit_log (account_id, action, at)`.execute(db);
  await sql`create index audit_log_actor_idx on audit_log (account_id, actor_kind, actor_id, at)`.execute(db);

  await db.schema
    .createTable('audit_heads')
    .addColumn('account_id', ref, (c) => c.primaryKey())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table audit_heads`.execute(db);
  await sql`drop table audit_log`.execute(db);
  await sql`drop table account_security`.execute(db);
  for (const column of ['method', 'user_agent', 'address']) {
    await db.schema.alterTable('admin_sessions').dropColumn(column).execute();
  }
  await sql`drop table admin_role_groups`.execute(db);
  await db.schema.alterTable('admin_users').dropColumn('break_glass').execute();
  await db.schema.alterTable('admin_users').dropColumn('disabled_at').execute();
  await db.schema.alterTable('admin_users').dropColumn('account_role').execute();
}
