import { iso, isoOrNull } from '../../../core/time.js';
import { defang } from './triage.content.model.js';
import type { ReporterRow, ReportWithReporters, RuleRow } from './triage.service.js';
import { contentOfReport } from './triage.service.js';

/** Reports as the admin API and the Customer API show them. */

function presentReporter(r: ReporterRow) {
  return {
    address: r.address,
    employee_id: r.employee_id,
    channel: r.channel,
    reported_at: iso(r.reported_at),
    last_reported_at: iso(r.last_reported_at),
    feedback_verdict: r.feedback_verdict,
    feedback_at: isoOrNull(r.feedback_at),
  };
}

/** One report in a list: what it is, who reported it (the first few), its verdict. */
export function presentReportSummary({ report, reporters, verdictAuthor }: ReportWithReporters) {
  return {
    id: report.id,
    sender: report.sender,
    sender_domain: report.sender_domain,
    subject: report.subject,
    reporter_count: report.reporters,
    first_reported_at: iso(report.first_reported_at),
    last_reported_at: iso(report.last_reported_at),
    verdict: report.verdict,
    verdict_note: report.verdict_note,
    verdict_at: isoOrNull(report.verdict_at),
    verdict_by:
      report.verdict === null
        ? null
        : report.verdict_rule_id !== null
          ? { kind: 'rule' as const, id: report.verdict_rule_id, name: verdictAuthor }
          : report.verdict_admin_id !== null
            ? { kind: 'admin' as const, id: report.verdict_admin_id, name: verdictAuthor }
            : null,
    content_deleted_at: isoOrNull(report.content_deleted_at),
    reporters: reporters.map(presentReporter),
  };
}

/** One report in the admin API's inbox: with how many reporters a role limited to groups does not see. */
export function presentAdminReportSummary(found: ReportWithReporters) {
  return { ...presentReportSummary(found), reporters_outside_scope: found.reportersOutsideScope };
}

/** The admin API's report: its safe view, with how many reporters a role limited to groups does not see. */
export function presentAdminReportDetail(found: ReportWithReporters) {
  return { ...presentReportDetail(found), reporters_outside_scope: found.reportersOutsideScope };
}

/** One report with its safe view: headers, text, URLs defanged with their hosts, attachments. */
export function presentReportDetail(found: ReportWithReporters) {
  const content = contentOfReport(found.report);
  return {
    ...presentReportSummary(found),
    message:
      content === null
        ? null
        : {
            from: content.from,
            to: content.to,
            subject: content.subject,
            date: isoOrNull(content.date),
            message_id: content.message_id,
            headers: content.headers,
            text: content.text,
            has_html: content.html !== null,
            urls: content.urls.map((u) => ({ url: u.url, defanged: defang(u.url), host: u.host })),
            attachments: content.attachments,
            truncated: content.truncated,
          },
  };
}

export function presentRule(rule: RuleRow) {
  return {
    id: rule.id,
    kind: rule.kind,
    value: rule.value,
    verdict: rule.verdict,
    note: rule.note,
    created_at: iso(rule.created_at),
  };
}
