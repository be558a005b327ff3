import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { components } from '../../api/generated/admin-api';

export type ReportSummary = components['schemas']['AdminReportSummary'];
export type ReportDetail = components['schemas']['AdminReportDetail'];
export type ReportMessage = components['schemas']['ReportMessage'];
export type Reporter = components['schemas']['Reporter'];
export type ReportRule = components['schemas']['ReportRule'];
export type FeedbackTemplate = components['schemas']['FeedbackTemplate'];
export type Verdict = NonNullable<ReportSummary['verdict']>;
export type Channel = Reporter['channel'];
export type RuleKind = ReportRule['kind'];

/** The verdicts, in the order the page offers them; the compiler checks each is the API's. */
export const VERDICTS = ['malicious', 'spam', 'safe'] as const satisfies readonly Verdict[];

export const VERDICT_LABELS: Record<Verdict, string> = {
  malicious: 'Malicious',
  spam: 'Spam',
  safe: 'Safe',
};

/** What each verdict means, as the verdict dialog explains it. */
export const VERDICT_HELP: Record<Verdict, string> = {
  malicious: 'A real attack: phishing, malware or fraud aimed at your people. Thank the reporter warmly.',
  spam: 'Unwanted but not targeted: marketing or bulk mail. No harm done, but worth reporting.',
  safe: 'Legitimate mail: a real supplier, colleague or service. Reassure the reporter.',
};

export const VERDICT_COLORS: Record<Verdict, string> = { malicious: 'red', spam: 'yellow', safe: 'teal' };

export const CHANNEL_LABELS: Record<Channel, string> = {
  addin: 'Outlook button',
  smtp: 'Reporting address',
  api: 'API',
};

export const RULE_KIND_LABELS: Record<RuleKind, string> = {
  sender_domain: 'Sender domain',
  url_host: 'URL host',
};

/** The server's bounds (triage.service.ts, triage.feedback.model.ts), in characters. */
export const VERDICT_NOTE_MAX = 2000;
export const RETENTION_DAYS_MAX = 3650;
export const FEEDBACK_SUBJECT_MAX = 200;
export const FEEDBACK_BODY_MAX = 5000;

/** One report, as its page and the verdict dialog read it. */
export function useReport(accountId: number, reportId: number) {
  return useQuery({
    queryKey: ['reports', accountId, 'one', reportId],
    queryFn: ({ signal }) =>
      call(
        api.GET('/accounts/{accountId}/reports/{reportId}', {
          params: { path: { accountId, reportId } },
          signal,
        }),
      ),
    enabled: Number.isInteger(reportId),
  });
}

/** "1.2 MB": an attachment's size. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}
