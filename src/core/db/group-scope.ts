import { type RawBuilder, type SqlBool, sql } from 'kysely';

/**
 * The conditions of a group scope (an administrator whose role is limited to groups, docs/roles.md),
 * for the repositories to add to their own statements: the database filters, so pages and counts
 * stay right. Null: every group, and no condition at all.
 */
export type GroupScope = readonly number[] | null;

/** The employee whose id is in the column `employeeId` (e.g. `e.id`) belongs to one of `groups`. */
export function employeeInScope(groups: readonly number[], employeeId: string): RawBuilder<SqlBool> {
  if (groups.length === 0) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`exists (select 1 from group_members scope_m where scope_m.employee_id = ${sql.ref(employeeId)} and scope_m.group_id in (${sql.join([...groups])}))`;
}

/** The group whose id is in the column `groupId` is one of `groups`. */
export function groupInScope(groups: readonly number[], groupId: string): RawBuilder<SqlBool> {
  if (groups.length === 0) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`${sql.ref(groupId)} in (${sql.join([...groups])})`;
}

/**
 * The campaign whose id is in the column `campaignId` targets no group outside `groups` (`links`:
 * its kind's target table, `campaign_groups` or `phishing_campaign_groups`).
 */
export function campaignInScope(
  groups: readonly number[],
  links: 'campaign_groups' | 'phishing_campaign_groups',
  campaignId: string,
): RawBuilder<SqlBool> {
  const outside = groups.length === 0 ? sql`` : sql` and scope_l.group_id not in (${sql.join([...groups])})`;
  return sql<SqlBool>`not exists (select 1 from ${sql.table(links)} scope_l where scope_l.campaign_id = ${sql.ref(campaignId)}${outside})`;
}
