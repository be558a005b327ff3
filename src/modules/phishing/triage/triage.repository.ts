import { sql } from 'kysely';
import type { Db } from '../../../core/db/database.js';
import { employeeInScope, type GroupScope, reportInScope } from '../../../core/db/group-scope.js';
import type {
  ReportChannel,
  ReportReportersTable,
  ReportRuleKind,
  ReportsTable,
  ReportVerdict,
} from '../../../core/db/schema/phishing.js';

/** Real reports (grouped identical messages), their reporters, verdict rules, reporting settings. */

export type ReportRow = Omit<ReportsTable, 'id' | 'reporters'> & { id: number; reporters: number };

const REPORT_COLUMNS = [
  'id',
  'account_id',
  'sender',
  'sender_domain',
  'subject',
  'body_fingerprint',
  'url_fingerprint',
  'reporters',
  'first_reported_at',
  'last_reported_at',
  'verdict',
  'verdict_note',
  'verdict_at',
  'verdict_admin_id',
  'verdict_rule_id',
  'content',
  'content_deleted_at',
] as const;

/** The report grouping a message with these fingerprints, the most recent first. */
export async function findGroupingReport(
  db: Db,
  accountId: number,
  fingerprints: { body: string; urls: string | null },
): Promise<number | null> {
  const byBody = await db
    .selectFrom('reports')
    .select('id')
    .where('account_id', '=', accountId)
    .where('body_fingerprint', '=', fingerprints.body)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (byBody) return byBody.id;
  if (fingerprints.urls === null) return null;
  const byUrls = await db
    .selectFrom('reports')
    .select('id')
    .where('account_id', '=', accountId)
    .where('url_fingerprint', '=', fingerprints.urls)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return byUrls?.id ?? null;
}

export async function insertReport(
  db: Db,
  values: {
    account_id: number;
    sender: string;
    sender_domain: string;
    subject: string;
    body_fingerprint: string;
    url_fingerprint: string | null;
    at: number;
    content: string;
    verdict: { verdict: ReportVerdict; note: string; ruleId: number } | null;
  },
): Promise<number> {
  const row = await db
    .insertInto('reports')
    .values({
      account_id: values.account_id,
      sender: values.sender,
      sender_domain: values.sender_domain,
      subject: values.subject,
      body_fingerprint: values.body_fingerprint,
      url_fingerprint: values.url_fingerprint,
      reporters: 0,
      first_reported_at: values.at,
      last_reported_at: values.at,
      content: values.content,
      verdict: values.verdict?.verdict ?? null,
      verdict_note: values.verdict?.note ?? null,
      verdict_at: values.verdict ? values.at : null,
      verdict_rule_id: values.verdict?.ruleId ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Adds a reporter to a report, or moves their last time when they reported it before. Returns
 * whether they are new to it (the report's count of reporters moved).
 */
export async function addReporter(
  db: Db,
  accountId: number,
  reportId: number,
  reporter: { employeeId: number | null; address: string; channel: ReportChannel; at: number },
): Promise<boolean> {
  const inserted = await db
    .insertInto('report_reporters')
    .values({
      account_id: accountId,
      report_id: reportId,
      employee_id: reporter.employeeId,
      address: reporter.address,
      channel: reporter.channel,
      reported_at: reporter.at,
      last_reported_at: reporter.at,
    })
    .onConflict((oc) => oc.columns(['report_id', 'address']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) {
    await db
      .updateTable('reports')
      .set({
        reporters: sql`reporters + 1`,
        last_reported_at: sql`case when last_reported_at < cast(${reporter.at} as bigint) then cast(${reporter.at} as bigint) else last_reported_at end`,
      })
      .where('id', '=', reportId)
      .where('account_id', '=', accountId)
      .execute();
  } else {
    await db
      .updateTable('report_reporters')
      .set({ last_reported_at: reporter.at })
      .where('report_id', '=', reportId)
      .where('address', '=', reporter.address)
      .execute();
  }
  return inserted !== undefined;
}

export async function findReport(
  db: Db,
  accountId: number,
  reportId: number,
): Promise<ReportRow | undefined> {
  return db
    .selectFrom('reports')
    .select(REPORT_COLUMNS)
    .where('account_id', '=', accountId)
    .where('id', '=', reportId)
    .executeTakeFirst();
}

export type ReporterRow = Omit<ReportReportersTable, 'id' | 'account_id'>;

/**
 * The reporters of these reports, first reporter first (at most `perReport` of each); of a role's
 * groups only, when it is limited to some (docs/roles.md).
 */
export async function reportersOf(
  db: Db,
  accountId: number,
  reportIds: number[],
  perReport: number,
  groups: GroupScope = null,
): Promise<ReporterRow[]> {
  if (reportIds.length === 0) return [];
  const rows = await db
    .selectFrom('report_reporters')
    .select([
      'report_id',
      'employee_id',
      'address',
      'channel',
      'reported_at',
      'last_reported_at',
      'feedback_verdict',
      'feedback_at',
    ])
    .where('account_id', '=', accountId)
    .where('report_id', 'in', reportIds)
    .$if(groups !== null, (q) => q.where(employeeInScope(groups ?? [], 'report_reporters.employee_id')))
    .orderBy('report_id')
    .orderBy('reported_at')
    .orderBy('id')
    .execute();
  const counts = new Map<number, number>();
  return rows.filter((row) => {
    const seen = counts.get(row.report_id) ?? 0;
    counts.set(row.report_id, seen + 1);
    return seen < perReport;
  });
}

/** How many reporters of each of these reports are outside a role's groups (reports with none: absent). */
export async function reportersOutsideScope(
  db: Db,
  accountId: number,
  reportIds: number[],
  groups: readonly number[],
): Promise<Map<number, number>> {
  if (reportIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('report_reporters')
    .select((eb) => ['report_id', eb.fn.countAll<number | string>().as('n')])
    .where('account_id', '=', accountId)
    .where('report_id', 'in', reportIds)
    .where((eb) => eb.not(employeeInScope(groups, 'report_reporters.employee_id')))
    .groupBy('report_id')
    .execute();
  return new Map(rows.map((r) => [r.report_id, Number(r.n)]));
}

export interface ReportListFilter {
  verdict?: ReportVerdict | 'none';
  since?: number;
  until?: number;
  /** Only reports with at least one reporter of these groups (a role limited to them, docs/roles.md). */
  groups?: GroupScope;
}

function filtered(db: Db, accountId: number, filter: ReportListFilter) {
  let query = db.selectFrom('reports').where('account_id', '=', accountId);
  if (filter.groups) query = query.where(reportInScope(filter.groups, 'reports.id'));
  if (filter.verdict === 'none') query = query.where('verdict', 'is', null);
  else if (filter.verdict) query = query.where('verdict', '=', filter.verdict);
  if (filter.since !== undefined) query = query.where('last_reported_at', '>=', filter.since);
  if (filter.until !== undefined) query = query.where('last_reported_at', '<', filter.until);
  return query;
}

export async function countReports(db: Db, accountId: number, filter: ReportListFilter): Promise<number> {
  const { total } = await filtered(db, accountId, filter)
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  return Number(total);
}

/** Reports, the most recently reported first. */
export function reportRows(
  db: Db,
  accountId: number,
  filter: ReportListFilter,
  limit: number,
  offset: number,
): Promise<ReportRow[]> {
  return filtered(db, accountId, filter)
    .select(REPORT_COLUMNS)
    .orderBy('last_reported_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function setVerdict(
  db: Db,
  accountId: number,
  reportId: number,
  verdict: {
    verdict: ReportVerdict;
    note: string;
    at: number;
    adminId: number | null;
    ruleId: number | null;
  },
): Promise<void> {
  await db
    .updateTable('reports')
    .set({
      verdict: verdict.verdict,
      verdict_note: verdict.note,
      verdict_at: verdict.at,
      verdict_admin_id: verdict.adminId,
      verdict_rule_id: verdict.ruleId,
    })
    .where('account_id', '=', accountId)
    .where('id', '=', reportId)
    .execute();
}

/** The reporters who have not had feedback for this verdict yet; marks them as having had it. */
export async function takeReportersToTell(
  db: Db,
  accountId: number,
  reportId: number,
  verdict: ReportVerdict,
  at: number,
): Promise<number[]> {
  const rows = await db
    .selectFrom('report_reporters')
    .select(['id', 'address', 'employee_id', 'feedback_verdict'])
    .where('account_id', '=', accountId)
    .where('report_id', '=', reportId)
    .execute();
  const due = rows.filter((r) => r.feedback_verdict !== verdict);
  if (due.length === 0) return [];
  await db
    .updateTable('report_reporters')
    .set({ feedback_verdict: verdict, feedback_at: at })
    .where(
      'id',
      'in',
      due.map((r) => r.id),
    )
    .execute();
  return due.map((r) => r.id);
}

/** Queues one feedback mail per reporter (kind `report_feedback`), due at once. */
export async function queueFeedbackMail(
  db: Db,
  accountId: number,
  reporterIds: number[],
  round: number,
  at: number,
): Promise<void> {
  if (reporterIds.length === 0) return;
  await db
    .insertInto('messages')
    .values(
      reporterIds.map((id) => ({
        account_id: accountId,
        kind: 'report_feedback' as const,
        round,
        status: 'queued' as const,
        attempts: 0,
        priority: 1,
        next_attempt_at: at,
        created_at: at,
        report_reporter_id: id,
      })),
    )
    .execute();
}

/** Queues a message whose content is written now (kind `report_thanks`), due at once. */
export async function queueThanksMail(
  db: Db,
  accountId: number,
  mail: { to: string; subject: string; text: string },
  at: number,
): Promise<void> {
  await db
    .insertInto('messages')
    .values({
      account_id: accountId,
      kind: 'report_thanks',
      round: 0,
      status: 'queued',
      attempts: 0,
      priority: 0,
      next_attempt_at: at,
      created_at: at,
      to_address: mail.to,
      subject: mail.subject,
      body_text: mail.text,
    })
    .execute();
}

/** What these claimed thank-you messages say (written when queued). */
export async function thanksMailRows(
  db: Db,
  messageIds: number[],
): Promise<
  Array<{ id: number; to_address: string | null; subject: string | null; body_text: string | null }>
> {
  if (messageIds.length === 0) return [];
  return db
    .selectFrom('messages')
    .select(['id', 'to_address', 'subject', 'body_text'])
    .where('id', 'in', messageIds)
    .where('kind', '=', 'report_thanks')
    .execute();
}

/** The account's employee with this address (any case), active or not. */
export async function employeeByAddress(
  db: Db,
  accountId: number,
  normalizedAddress: string,
): Promise<{ id: number; active: number } | undefined> {
  return db
    .selectFrom('employees')
    .select(['id', 'active'])
    .where('account_id', '=', accountId)
    .where('email_normalized', '=', normalizedAddress)
    .executeTakeFirst();
}

export interface FeedbackMailRow {
  message_id: number;
  account_id: number;
  address: string;
  first_name: string | null;
  company: string;
  subject: string;
  verdict: ReportVerdict | null;
  note: string | null;
  feedback_verdict: ReportVerdict | null;
  template_subject: string | null;
  template_body: string | null;
}

/** What these claimed feedback messages (of any accounts) are made of. */
export async function feedbackMailRows(db: Db, messageIds: number[]): Promise<FeedbackMailRow[]> {
  if (messageIds.length === 0) return [];
  return db
    .selectFrom('messages as m')
    .innerJoin('report_reporters as rr', (j) =>
      j.onRef('rr.id', '=', 'm.report_reporter_id').onRef('rr.account_id', '=', 'm.account_id'),
    )
    .innerJoin('reports as r', 'r.id', 'rr.report_id')
    .innerJoin('accounts as a', 'a.id', 'm.account_id')
    .leftJoin('employees as e', (j) =>
      j.onRef('e.id', '=', 'rr.employee_id').onRef('e.account_id', '=', 'm.account_id'),
    )
    .leftJoin('report_feedback_templates as t', (j) =>
      j.onRef('t.account_id', '=', 'm.account_id').onRef('t.verdict', '=', 'rr.feedback_verdict'),
    )
    .select([
      'm.id as message_id',
      'm.account_id',
      'rr.address',
      'e.first_name',
      sql<string>`coalesce(a.display_name, a.name)`.as('company'),
      'r.subject',
      'r.verdict',
      'r.verdict_note as note',
      'rr.feedback_verdict',
      't.subject as template_subject',
      't.body as template_body',
    ])
    .where('m.id', 'in', messageIds)
    .where('m.kind', '=', 'report_feedback')
    .execute();
}

// Feedback templates

export async function feedbackTemplatesOf(
  db: Db,
  accountId: number,
): Promise<Array<{ verdict: ReportVerdict; subject: string; body: string; updated_at: number }>> {
  return db
    .selectFrom('report_feedback_templates')
    .select(['verdict', 'subject', 'body', 'updated_at'])
    .where('account_id', '=', accountId)
    .execute();
}

export async function saveFeedbackTemplate(
  db: Db,
  accountId: number,
  verdict: ReportVerdict,
  template: { subject: string; body: string } | null,
  at: number,
): Promise<void> {
  if (template === null) {
    await db
      .deleteFrom('report_feedback_templates')
      .where('account_id', '=', accountId)
      .where('verdict', '=', verdict)
      .execute();
    return;
  }
  await db
    .insertInto('report_feedback_templates')
    .values({ account_id: accountId, verdict, ...template, updated_at: at })
    .onConflict((oc) => oc.columns(['account_id', 'verdict']).doUpdateSet({ ...template, updated_at: at }))
    .execute();
}

// Rules

export interface RuleRow {
  id: number;
  kind: ReportRuleKind;
  value: string;
  verdict: ReportVerdict;
  note: string;
  created_at: number;
}

export async function listRules(db: Db, accountId: number): Promise<RuleRow[]> {
  return db
    .selectFrom('report_rules')
    .select(['id', 'kind', 'value', 'verdict', 'note', 'created_at'])
    .where('account_id', '=', accountId)
    .orderBy('kind')
    .orderBy('value')
    .execute();
}

/** The rules matching a sender domain or any of these URL hosts (and their parent domains). */
export async function matchingRules(
  db: Db,
  accountId: number,
  senderDomains: string[],
  urlHosts: string[],
): Promise<RuleRow[]> {
  if (senderDomains.length === 0 && urlHosts.length === 0) return [];
  return db
    .selectFrom('report_rules')
    .select(['id', 'kind', 'value', 'verdict', 'note', 'created_at'])
    .where('account_id', '=', accountId)
    .where((eb) =>
      eb.or([
        ...(senderDomains.length > 0
          ? [eb.and([eb('kind', '=', 'sender_domain'), eb('value', 'in', senderDomains)])]
          : []),
        ...(urlHosts.length > 0 ? [eb.and([eb('kind', '=', 'url_host'), eb('value', 'in', urlHosts)])] : []),
      ]),
    )
    .orderBy('id')
    .execute();
}

export async function countRules(db: Db, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('report_rules')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Inserts a rule; undefined when the account already has one for this kind and value. */
export async function insertRule(
  db: Db,
  accountId: number,
  rule: { kind: ReportRuleKind; value: string; verdict: ReportVerdict; note: string; at: number },
): Promise<number | undefined> {
  const row = await db
    .insertInto('report_rules')
    .values({
      account_id: accountId,
      kind: rule.kind,
      value: rule.value,
      verdict: rule.verdict,
      note: rule.note,
      created_at: rule.at,
    })
    .onConflict((oc) => oc.columns(['account_id', 'kind', 'value']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

export async function deleteRule(db: Db, accountId: number, ruleId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('report_rules')
    .where('account_id', '=', accountId)
    .where('id', '=', ruleId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

// Reporting settings (the reporting id is the mailbox's)

/** Days the account keeps reported content; null: the default. */
export async function retentionDaysOf(db: Db, accountId: number): Promise<number | null> {
  const row = await db
    .selectFrom('reporting_settings')
    .select('retention_days')
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row?.retention_days ?? null;
}

export async function saveRetentionDays(db: Db, accountId: number, days: number | null): Promise<void> {
  const now = Date.now();
  await db
    .insertInto('reporting_settings')
    .values({ account_id: accountId, retention_days: days, updated_at: now })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ retention_days: days, updated_at: now }))
    .execute();
}

/**
 * Deletes the content of every report whose last report is older than its account's retention
 * (at most `limit` reports a call); returns how many were emptied.
 */
export async function expireReportContentOfAllAccounts(
  db: Db,
  now: number,
  defaultDays: number,
  limit: number,
): Promise<number> {
  const day = 24 * 60 * 60 * 1000;
  // Each report against its own account's cut-off (an index on last_reported_at holds only the
  // reports that still have content, so the scan is of those).
  const due = await db
    .selectFrom('reports as r')
    .leftJoin('reporting_settings as s', 's.account_id', 'r.account_id')
    .select('r.id')
    .where('r.content', 'is not', null)
    .where(
      'r.last_reported_at',
      '<',
      sql<number>`cast(${now} as bigint) - coalesce(s.retention_days, ${defaultDays}) * cast(${day} as bigint)`,
    )
    .orderBy('r.last_reported_at')
    .limit(limit)
    .execute();
  if (due.length === 0) return 0;
  await db
    .updateTable('reports')
    .set({ content: null, content_deleted_at: now })
    .where(
      'id',
      'in',
      due.map((r) => r.id),
    )
    .execute();
  return due.length;
}

// Figures for the overview

/** Reports (every reporter's) per week since `start`, by week index from it. */
export async function reportsPerWeek(
  db: Db,
  accountId: number,
  start: number,
  weekMs: number,
  groups: GroupScope = null,
): Promise<Array<{ week: number; reports: number }>> {
  const rows = await db
    .selectFrom('report_reporters')
    .select([
      sql<number>`cast((reported_at - cast(${start} as bigint)) / cast(${weekMs} as bigint) as integer)`.as(
        'week',
      ),
      (eb) => eb.fn.countAll<number>().as('reports'),
    ])
    .where('account_id', '=', accountId)
    .where('reported_at', '>=', start)
    .$if(groups !== null, (q) => q.where(employeeInScope(groups ?? [], 'report_reporters.employee_id')))
    .groupBy('week')
    .execute();
  return rows.map((r) => ({ week: Number(r.week), reports: Number(r.reports) }));
}

/** Reports judged since `since`: their verdicts, and how long an administrator took (rules are instant). */
export async function judgedSince(
  db: Db,
  accountId: number,
  since: number,
  limit: number,
  groups: GroupScope = null,
): Promise<Array<{ verdict: ReportVerdict; seconds: number; by_admin: boolean }>> {
  const rows = await db
    .selectFrom('reports')
    .select(['verdict', 'verdict_at', 'first_reported_at', 'verdict_admin_id'])
    .where('account_id', '=', accountId)
    .where('verdict_at', '>=', since)
    .$if(groups !== null, (q) => q.where(reportInScope(groups ?? [], 'reports.id')))
    .orderBy('verdict_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    verdict: r.verdict as ReportVerdict,
    seconds: Math.max(0, Math.round((Number(r.verdict_at) - Number(r.first_reported_at)) / 1000)),
    by_admin: r.verdict_admin_id !== null,
  }));
}

export async function countUnjudged(db: Db, accountId: number, groups: GroupScope = null): Promise<number> {
  const row = await db
    .selectFrom('reports')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('verdict', 'is', null)
    .$if(groups !== null, (q) => q.where(reportInScope(groups ?? [], 'reports.id')))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Who gave these verdicts: administrators' names (or addresses) and rules' kinds and values. */
export async function verdictAuthors(
  db: Db,
  accountId: number,
  adminIds: number[],
  ruleIds: number[],
): Promise<{ admins: Map<number, string>; rules: Map<number, string> }> {
  const admins =
    adminIds.length === 0
      ? []
      : await db
          .selectFrom('admin_users')
          .select(['id', 'name', 'email'])
          .where('id', 'in', adminIds)
          .execute();
  const rules =
    ruleIds.length === 0
      ? []
      : await db
          .selectFrom('report_rules')
          .select(['id', 'kind', 'value'])
          .where('account_id', '=', accountId)
          .where('id', 'in', ruleIds)
          .execute();
  return {
    admins: new Map(admins.map((a) => [a.id, a.name || a.email])),
    rules: new Map(
      rules.map((r) => [r.id, `${r.kind === 'sender_domain' ? 'sender domain' : 'link host'} ${r.value}`]),
    ),
  };
}

/**
 * A deleted employee's address leaves the reports they made: the reporter row stays (the report's
 * count and times are the account's figures) as "deleted-<employee id>", without the employee.
 */
export async function forgetReporter(db: Db, accountId: number, employeeId: number): Promise<void> {
  await db
    .updateTable('report_reporters')
    .set({ address: `deleted-${employeeId}`, employee_id: null })
    .where('account_id', '=', accountId)
    .where('employee_id', '=', employeeId)
    .execute();
}
