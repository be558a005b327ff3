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

/**
 * The person an account's message `m` was written to (the enrollment's, the simulation's
 * recipient's, the reporter's, the test send's employee) belongs to one of `groups`. A message
 * to nobody the directory knows (a test send to an administrator) is outside every scope.
 *
 * The outbox counts every message of the account, so the form is the dialect's cheaper one
 * (bench/RESULTS.md, "Group scopes"): on PostgreSQL each set is an uncorrelated subquery it
 * hashes once per statement (its per-row subplans for `or exists` took 2.4 s at 100,000
 * messages); on SQLite a correlated `exists` a message, a primary-key look-up each (materialising
 * the sets cost it twice the CPU, and a page of 25 would build them all).
 */
export function messageInScope(
  groups: readonly number[],
  accountId: number,
  message: string,
  dialect: 'sqlite' | 'postgres',
): RawBuilder<SqlBool> {
  if (groups.length === 0) return sql<SqlBool>`1 = 0`;
  const m = (column: string) => sql.ref(`${message}.${column}`);
  if (dialect === 'sqlite') {
    const member = (employee: string) => employeeInScope(groups, employee);
    return sql<SqlBool>`(
    exists (select 1 from enrollments scope_e where scope_e.id = ${m('enrollment_id')} and ${member('scope_e.employee_id')})
    or exists (select 1 from phishing_recipients scope_r where scope_r.id = ${m('phishing_recipient_id')} and ${member('scope_r.employee_id')})
    or exists (select 1 from report_reporters scope_rr where scope_rr.id = ${m('report_reporter_id')} and ${member('scope_rr.employee_id')})
    or exists (select 1 from phishing_test_sends scope_t where scope_t.message_id = ${m('id')} and ${member('scope_t.employee_id')}))`;
  }
  const members = sql`select scope_m.employee_id from group_members scope_m where scope_m.group_id in (${sql.join([...groups])})`;
  return sql<SqlBool>`(
    ${m('enrollment_id')} in (select scope_e.id from enrollments scope_e where scope_e.account_id = ${accountId} and scope_e.employee_id in (${members}))
    or ${m('phishing_recipient_id')} in (select scope_r.id from phishing_recipients scope_r where scope_r.account_id = ${accountId} and scope_r.employee_id in (${members}))
    or ${m('report_reporter_id')} in (select scope_rr.id from report_reporters scope_rr where scope_rr.account_id = ${accountId} and scope_rr.employee_id in (${members}))
    or ${m('id')} in (select scope_t.message_id from phishing_test_sends scope_t where scope_t.account_id = ${accountId} and scope_t.employee_id in (${members})))`;
}

/** The report whose id is in the column `reportId` has at least one reporter who belongs to one of `groups`. */
export function reportInScope(groups: readonly number[], reportId: string): RawBuilder<SqlBool> {
  if (groups.length === 0) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`exists (select 1 from report_reporters scope_rr where scope_rr.report_id = ${sql.ref(reportId)} and ${employeeInScope(groups, 'scope_rr.employee_id')})`;
}
