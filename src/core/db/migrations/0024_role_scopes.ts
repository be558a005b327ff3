import type { Kysely } from 'kysely';
import { dialectOf } from '../database.js';

// Issue 23: invitations carry the role and group scope the invited administrator gets.
//
// - `admin_invitations.account_role`: the role of the administrator the invitation makes; null
//   (invitations made before) an owner, as every account administrator was then.
// - `admin_invitation_groups`: the groups that administrator's role is limited to; none: every
//   group. A group deleted meanwhile drops out of the scope.

export async function up(db: Kysely<unknown>): Promise<void> {
  const ref = dialectOf(db) === 'postgres' ? 'bigint' : 'integer';
  await db.schema.alterTable('admin_invitations').addColumn('account_role', 'text').execute();
  await db.schema
    .createTable('admin_invitation_groups')
    .addColumn('account_id', ref, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('invitation_id', ref, (c) =>
      c.notNull().references('admin_invitations.id').onDelete('cascade'),
    )
    .addColumn('group_id', ref, (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('admin_invitation_groups_pk', ['invitation_id', 'group_id'])
    .execute();
  await db.schema
    .createIndex('admin_invitation_groups_group_idx')
    .on('admin_invitation_groups')
    .column('group_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('admin_invitation_groups').execute();
  await db.schema.alterTable('admin_invitations').dropColumn('account_role').execute();
}
