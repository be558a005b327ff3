import { diffFields, recordAudit } from '../../../core/audit/audit.js';
import type { Db } from '../../../core/db/database.js';
import type { GroupScope } from '../../../core/db/group-scope.js';
import type { ReportRuleKind, ReportVerdict } from '../../../core/db/schema/phishing.js';
import { AppError, FieldErrorCollector } from '../../../core/errors.js';
import {
  fetchPage,
  type ListPage,
  type ListWindow,
  type Page,
  type PageRequest,
  readList,
} from '../../../core/pagination.js';
import { judgeReport } from './triage.commands.js';
import type { ReportContent } from './triage.content.model.js';
import {
  DEFAULT_FEEDBACK,
  FEEDBACK_BODY_MAX,
  FEEDBACK_SUBJECT_MAX,
  unknownPlaceholders,
  VERDICTS,
} from './triage.feedback.model.js';
import {
  countReports,
  countRules,
  countUnjudged,
  deleteRule,
  expireReportContentOfAllAccounts,
  feedbackTemplatesOf,
  findReport,
  insertRule,
  judgedSince,
  listRules,
  type ReporterRow,
  type ReportListFilter,
  type ReportRow,
  type RuleRow,
  reportersOf,
  reportersOutsideScope,
  reportRows,
  reportsPerWeek,
  retentionDaysOf,
  saveFeedbackTemplate,
  saveRetentionDays,
  verdictAuthors,
} from './triage.repository.js';

/**
 * The triage inbox: an account's real reports, each with its reporters, its safe view and its
 * verdict; the rules that judge new reports; the reporting settings (address id, retention) and
 * the feedback templates. Every function takes the account first; another account's report is
 * simply not found.
 */

export const DEFAULT_RETENTION_DAYS = 90;
export const RETENTION_DAYS_MAX = 3650;
export const RULES_MAX = 500;
export const VERDICT_NOTE_MAX = 2000;
/** Reporters shown with each report of a list (the detail shows them all, up to REPORTERS_SHOWN_MAX). */
export const REPORTERS_IN_LIST = 5;
export const REPORTERS_SHOWN_MAX = 1000;

export type { ReporterRow, ReportListFilter, ReportRow, RuleRow };

export interface ReportWithReporters {
  report: ReportRow;
  reporters: ReporterRow[];
  /** Who gave its verdict, in words ("Ann Lee", "sender domain news.example.com"); null: gone or none. */
  verdictAuthor: string | null;
  /** Reporters outside a role's groups (docs/roles.md): counted, never listed; 0 for everyone else. */
  reportersOutsideScope: number;
}

async function withReporters(
  db: Db,
  accountId: number,
  rows: ReportRow[],
  perReport: number,
  groups: GroupScope = null,
): Promise<ReportWithReporters[]> {
  const ids = rows.map((r) => r.id);
  const [reporters, outside] = await Promise.all([
    reportersOf(db, accountId, ids, perReport, groups),
    groups === null ? new Map<number, number>() : reportersOutsideScope(db, accountId, ids, groups),
  ]);
  const authors = await verdictAuthors(
    db,
    accountId,
    [...new Set(rows.flatMap((r) => (r.verdict_admin_id === null ? [] : [r.verdict_admin_id])))],
    [...new Set(rows.flatMap((r) => (r.verdict_rule_id === null ? [] : [r.verdict_rule_id])))],
  );
  return rows.map((report) => ({
    report,
    reporters: reporters.filter((r) => r.report_id === report.id),
    reportersOutsideScope: outside.get(report.id) ?? 0,
    verdictAuthor:
      report.verdict_rule_id !== null
        ? (authors.rules.get(report.verdict_rule_id) ?? null)
        : report.verdict_admin_id !== null
          ? (authors.admins.get(report.verdict_admin_id) ?? null)
          : null,
  }));
}

/**
 * A page of the inbox (admin API), the most recently reported first. A role limited to groups
 * (`filter.groups`) gets the reports one of its groups' people made, with those reporters only.
 */
export async function listReportsPage(
  db: Db,
  accountId: number,
  window: ListWindow,
  filter: ReportListFilter,
): Promise<ListPage<ReportWithReporters>> {
  const page = await readList(
    window,
    () => countReports(db, accountId, filter),
    (limit, offset) => reportRows(db, accountId, filter, limit, offset),
  );
  return {
    count: page.count,
    items: await withReporters(db, accountId, page.items, REPORTERS_IN_LIST, filter.groups ?? null),
  };
}

/** A page of the Customer API's list (a page past the last is `invalid_page`). */
export async function customerReportsPage(
  db: Db,
  accountId: number,
  request: PageRequest,
  filter: ReportListFilter,
): Promise<Page<ReportWithReporters>> {
  const page = await fetchPage(
    request,
    () => countReports(db, accountId, filter),
    (limit, offset) => reportRows(db, accountId, filter, limit, offset),
  );
  return { ...page, items: await withReporters(db, accountId, page.items, REPORTERS_IN_LIST) };
}

/** One report with its reporters (of a role's groups only, when it is limited to some). */
export async function getReport(
  db: Db,
  accountId: number,
  reportId: number,
  groups: GroupScope = null,
): Promise<ReportWithReporters> {
  const report = await findReport(db, accountId, reportId);
  if (!report) throw new AppError('report_not_found');
  const [found] = await withReporters(db, accountId, [report], REPORTERS_SHOWN_MAX, groups);
  return found as ReportWithReporters;
}

/** The report's safe view, or null once retention deleted it. */
export function contentOfReport(report: ReportRow): ReportContent | null {
  if (report.content === null) return null;
  return JSON.parse(report.content) as ReportContent;
}

/** Gives a verdict (see judgeReport); the note is optional, trimmed, at most VERDICT_NOTE_MAX characters. */
export async function giveVerdict(
  db: Db,
  accountId: number,
  adminId: number,
  reportId: number,
  input: { verdict: ReportVerdict; note?: string | undefined },
  groups: GroupScope = null,
): Promise<ReportWithReporters> {
  const note = (input.note ?? '').trim();
  const errors = new FieldErrorCollector();
  if (note.length > VERDICT_NOTE_MAX) errors.add('note', `must be at most ${VERDICT_NOTE_MAX} characters`);
  errors.throwIfAny();
  await judgeReport(db, { accountId, reportId, verdict: input.verdict, note, adminId, at: Date.now() });
  return getReport(db, accountId, reportId, groups);
}

// Rules

export function reportRules(db: Db, accountId: number): Promise<RuleRow[]> {
  return listRules(db, accountId);
}

const HOST_PATTERN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;

/** Adds a rule: a sender domain or URL host (and every name under it) gets this verdict. */
export async function addReportRule(
  db: Db,
  accountId: number,
  input: { kind: ReportRuleKind; value: string; verdict: ReportVerdict; note?: string | undefined },
): Promise<RuleRow> {
  const value = input.value.trim().toLowerCase().replace(/^\*\./, '').replace(/\.$/, '');
  const note = (input.note ?? '').trim();
  const errors = new FieldErrorCollector();
  if (!HOST_PATTERN.test(value)) errors.add('value', 'must be a domain name such as newsletter.example.com');
  if (note.length > VERDICT_NOTE_MAX) errors.add('note', `must be at most ${VERDICT_NOTE_MAX} characters`);
  errors.throwIfAny();
  if ((await countRules(db, accountId)) >= RULES_MAX) {
    throw new AppError('validation_failed', {
      details: { value: [`an account has at most ${RULES_MAX} rules`] },
    });
  }
  return db.transaction().execute(async (trx) => {
    const id = await insertRule(trx, accountId, {
      kind: input.kind,
      value,
      verdict: input.verdict,
      note,
      at: Date.now(),
    });
    if (id === undefined) throw new AppError('report_rule_exists');
    const rule = (await listRules(trx, accountId)).find((r) => r.id === id) as RuleRow;
    await recordAudit(trx, {
      accountId,
      action: 'report_rule.created',
      object: { type: 'report_rule', id, label: value },
      changes: diffFields(null, { kind: input.kind, value, verdict: input.verdict, note }),
    });
    return rule;
  });
}

export async function removeReportRule(db: Db, accountId: number, ruleId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const rule = (await listRules(trx, accountId)).find((r) => r.id === ruleId);
    if (!rule || !(await deleteRule(trx, accountId, ruleId))) throw new AppError('report_rule_not_found');
    await recordAudit(trx, {
      accountId,
      action: 'report_rule.deleted',
      object: { type: 'report_rule', id: ruleId, label: rule.value },
      changes: diffFields({ kind: rule.kind, value: rule.value, verdict: rule.verdict }, null),
    });
  });
}

// Settings

export interface ReportingSettings {
  retention_days: number;
}

export async function getReportingSettings(db: Db, accountId: number): Promise<ReportingSettings> {
  return { retention_days: (await retentionDaysOf(db, accountId)) ?? DEFAULT_RETENTION_DAYS };
}

export async function updateReportingSettings(
  db: Db,
  accountId: number,
  input: { retention_days?: number | undefined },
): Promise<ReportingSettings> {
  if (input.retention_days !== undefined) {
    const errors = new FieldErrorCollector();
    if (
      !Number.isInteger(input.retention_days) ||
      input.retention_days < 1 ||
      input.retention_days > RETENTION_DAYS_MAX
    ) {
      errors.add('retention_days', `must be a whole number of days from 1 to ${RETENTION_DAYS_MAX}`);
    }
    errors.throwIfAny();
    const days = input.retention_days;
    await db.transaction().execute(async (trx) => {
      const before = await retentionDaysOf(trx, accountId);
      await saveRetentionDays(trx, accountId, days);
      await recordAudit(trx, {
        accountId,
        action: 'reporting_settings.updated',
        object: { type: 'reporting_settings', id: accountId },
        changes: diffFields({ retention_days: before ?? DEFAULT_RETENTION_DAYS }, { retention_days: days }),
      });
    });
  }
  return getReportingSettings(db, accountId);
}

// Feedback templates

export interface FeedbackTemplateView {
  verdict: ReportVerdict;
  subject: string;
  body: string;
  is_default: boolean;
}

export async function feedbackTemplates(db: Db, accountId: number): Promise<FeedbackTemplateView[]> {
  const own = new Map((await feedbackTemplatesOf(db, accountId)).map((t) => [t.verdict, t]));
  return VERDICTS.map((verdict) => {
    const template = own.get(verdict);
    return template
      ? { verdict, subject: template.subject, body: template.body, is_default: false }
      : { verdict, ...DEFAULT_FEEDBACK[verdict], is_default: true };
  });
}

/** Saves (null: removes) the account's own template of a verdict, recorded in the audit log. */
async function saveFeedbackTemplateAudited(
  db: Db,
  accountId: number,
  verdict: ReportVerdict,
  template: { subject: string; body: string } | null,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = (await feedbackTemplatesOf(trx, accountId)).find((t) => t.verdict === verdict);
    await saveFeedbackTemplate(trx, accountId, verdict, template, Date.now());
    await recordAudit(trx, {
      accountId,
      action: template ? 'feedback_template.updated' : 'feedback_template.reset',
      object: { type: 'feedback_template', id: verdict, label: verdict },
      changes: diffFields(before ? { subject: before.subject, body: before.body } : null, template),
    });
  });
}

/** Saves the account's template for a verdict; null restores the default. */
export async function saveFeedbackTemplateOf(
  db: Db,
  accountId: number,
  verdict: ReportVerdict,
  input: { subject: string; body: string } | null,
): Promise<FeedbackTemplateView[]> {
  if (input !== null) {
    const subject = input.subject.trim();
    const body = input.body.replace(/\r\n/g, '\n').trim();
    const errors = new FieldErrorCollector();
    if (subject === '' || subject.length > FEEDBACK_SUBJECT_MAX) {
      errors.add('subject', `must be 1 to ${FEEDBACK_SUBJECT_MAX} characters`);
    }
    if (body === '' || body.length > FEEDBACK_BODY_MAX)
      errors.add('body', `must be 1 to ${FEEDBACK_BODY_MAX} characters`);
    for (const [field, source] of [
      ['subject', subject],
      ['body', body],
    ] as const) {
      const unknown = unknownPlaceholders(source);
      if (unknown.length > 0)
        errors.add(field, `unknown placeholder: ${unknown.map((n) => `{{${n}}}`).join(', ')}`);
    }
    errors.throwIfAny();
    await saveFeedbackTemplateAudited(db, accountId, verdict, { subject, body });
  } else {
    await saveFeedbackTemplateAudited(db, accountId, verdict, null);
  }
  return feedbackTemplates(db, accountId);
}

/** Deletes the content of reports past their account's retention (the scheduler calls it). */
export function expireReportContent(db: Db, now: number): Promise<number> {
  return expireReportContentOfAllAccounts(db, now, DEFAULT_RETENTION_DAYS, 500);
}

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
/** Weeks of reports the overview shows. */
export const OVERVIEW_WEEKS = 8;
/** The window of the verdict figures. */
export const VERDICT_WINDOW_DAYS = 90;

/**
 * The reporting loop at a glance, for the account overview: real reports per week (the last
 * OVERVIEW_WEEKS, oldest first, the current one last), the median time an administrator took to a
 * verdict and the reporting accuracy (malicious or spam ÷ all judged) over VERDICT_WINDOW_DAYS,
 * and how many reports wait for a verdict.
 */
export async function reportingOverview(db: Db, accountId: number, now: number, groups: GroupScope = null) {
  const currentWeekStart = now - (now % WEEK_MS);
  const start = currentWeekStart - (OVERVIEW_WEEKS - 1) * WEEK_MS;
  // A role limited to groups: its groups' people's reports, the reports one of them made.
  const [weeks, judged, unjudged] = await Promise.all([
    reportsPerWeek(db, accountId, start, WEEK_MS, groups),
    judgedSince(db, accountId, now - VERDICT_WINDOW_DAYS * 24 * 60 * 60 * 1000, 10_000, groups),
    countUnjudged(db, accountId, groups),
  ]);
  const perWeek = Array.from({ length: OVERVIEW_WEEKS }, (_, i) => ({
    week_start: start + i * WEEK_MS,
    reports: weeks.find((w) => w.week === i)?.reports ?? 0,
  }));
  const byAdmin = judged
    .filter((j) => j.by_admin)
    .map((j) => j.seconds)
    .sort((a, b) => a - b);
  const median =
    byAdmin.length === 0
      ? null
      : byAdmin.length % 2 === 1
        ? (byAdmin[(byAdmin.length - 1) / 2] as number)
        : Math.round(
            ((byAdmin[byAdmin.length / 2 - 1] as number) + (byAdmin[byAdmin.length / 2] as number)) / 2,
          );
  const harmful = judged.filter((j) => j.verdict !== 'safe').length;
  return {
    reports_per_week: perWeek,
    judged: judged.length,
    awaiting_verdict: unjudged,
    median_seconds_to_verdict: median,
    reporting_accuracy: judged.length === 0 ? null : Math.round((harmful / judged.length) * 10_000) / 10_000,
  };
}
