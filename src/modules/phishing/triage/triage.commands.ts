import { diffFields, recordAudit } from '../../../core/audit/audit.js';
import type { Db } from '../../../core/db/database.js';
import type { ReportChannel, ReportVerdict } from '../../../core/db/schema/phishing.js';
import { AppError } from '../../../core/errors.js';
import { emit } from '../../../core/events.js';
import { domainOf, type ReportContent } from './triage.content.model.js';
import { VERDICTS } from './triage.feedback.model.js';
import {
  addReporter,
  findGroupingReport,
  findReport,
  insertReport,
  matchingRules,
  queueFeedbackMail,
  type RuleRow,
  setVerdict,
  takeReportersToTell,
} from './triage.repository.js';
import './triage.events.model.js';

/**
 * Real reports: a reported message that is no simulation joins the report of identical messages
 * (same sender, subject and text, or the same URLs) or starts one, which the account's rules may
 * judge at once; a verdict, an administrator's or a rule's, queues one feedback mail for each
 * reporter not yet told it. Each is one transaction with its events.
 */

export interface FiledReport {
  reportId: number;
  created: boolean;
  verdict: ReportVerdict | null;
}

/** Files a real report (see above); the reporter is already known to be one of the account's people. */
export async function fileRealReport(
  db: Db,
  props: {
    accountId: number;
    reporter: { address: string; employeeId: number | null; channel: ReportChannel };
    content: ReportContent;
    fingerprints: { body: string; urls: string | null };
    at: number;
  },
): Promise<FiledReport> {
  const { accountId, content, at } = props;
  return db.transaction().execute(async (trx) => {
    let reportId = await findGroupingReport(trx, accountId, props.fingerprints);
    const created = reportId === null;
    let judgedBy: RuleRow | undefined;
    if (reportId === null) {
      const rule = await firstMatchingRule(trx, accountId, content);
      reportId = await insertReport(trx, {
        account_id: accountId,
        sender: content.from.address,
        sender_domain: domainOf(content.from.address),
        subject: content.subject,
        body_fingerprint: props.fingerprints.body,
        url_fingerprint: props.fingerprints.urls,
        at,
        content: JSON.stringify(content),
        verdict: rule ? { verdict: rule.verdict, note: rule.note, ruleId: rule.id } : null,
      });
      judgedBy = rule;
    }
    const reporter = { ...props.reporter, at };
    await addReporter(trx, accountId, reportId, reporter);
    await emit(trx, 'phishing.report_received', { accountId, reportId, reporter, created });
    if (judgedBy)
      await emit(trx, 'phishing.report_judged', { accountId, reportId, verdict: judgedBy.verdict, at });
    const report = await findReport(trx, accountId, reportId);
    const verdict = report?.verdict ?? null;
    // A report already judged: whoever joins it is told the verdict at once.
    if (verdict) await tellReporters(trx, accountId, reportId, verdict, at);
    return { reportId, created, verdict };
  });
}

/** Gives a report a verdict with a note; every reporter not yet told this verdict gets the feedback mail. */
export async function judgeReport(
  db: Db,
  props: {
    accountId: number;
    reportId: number;
    verdict: ReportVerdict;
    note: string;
    adminId: number | null;
    at: number;
  },
): Promise<void> {
  const { accountId, reportId, verdict, at } = props;
  await db.transaction().execute(async (trx) => {
    const report = await findReport(trx, accountId, reportId);
    if (!report) throw new AppError('report_not_found');
    await setVerdict(trx, accountId, reportId, {
      verdict,
      note: props.note,
      at,
      adminId: props.adminId,
      ruleId: null,
    });
    await emit(trx, 'phishing.report_judged', { accountId, reportId, verdict, at });
    await tellReporters(trx, accountId, reportId, verdict, at);
    await recordAudit(trx, {
      accountId,
      action: 'report.judged',
      object: { type: 'report', id: reportId, label: report.subject },
      changes: diffFields(
        { verdict: report.verdict, note: report.verdict_note },
        { verdict, note: props.note },
      ),
    });
  });
}

async function tellReporters(
  trx: Db,
  accountId: number,
  reportId: number,
  verdict: ReportVerdict,
  at: number,
): Promise<void> {
  const reporterIds = await takeReportersToTell(trx, accountId, reportId, verdict, at);
  await queueFeedbackMail(trx, accountId, reporterIds, VERDICTS.indexOf(verdict) + 1, at);
}

/**
 * The rule that judges a new report: one for its sender's domain or a parent of it first, else
 * one for the host (or a parent) of one of its URLs; the oldest rule when several match.
 */
async function firstMatchingRule(
  trx: Db,
  accountId: number,
  content: ReportContent,
): Promise<RuleRow | undefined> {
  const senderDomains = withParents(domainOf(content.from.address));
  const urlHosts = [...new Set(content.urls.flatMap((url) => withParents(url.host)))].slice(0, 500);
  const rules = await matchingRules(trx, accountId, senderDomains, urlHosts);
  return rules.find((rule) => rule.kind === 'sender_domain') ?? rules[0];
}

/** `a.b.example` → [`a.b.example`, `b.example`] (a bare top-level name is no rule's value). */
export function withParents(host: string): string[] {
  if (host === '') return [];
  const labels = host.split('.').slice(-12);
  const out: string[] = [];
  for (let i = 0; i < labels.length - 1; i++) out.push(labels.slice(i).join('.'));
  return out.length > 0 ? out : [host];
}
