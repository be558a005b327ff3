import type { ReportChannel, ReportVerdict } from '../../../core/db/schema/phishing.js';

/** The events triage emits (core/events.ts); subscribers run inside its transactions. */
declare module '../../../core/events.js' {
  interface DomainEvents {
    /** Someone reported a message that is no simulation (a new report, or one more reporter of one). */
    'phishing.report_received': {
      accountId: number;
      reportId: number;
      reporter: { address: string; employeeId: number | null; channel: ReportChannel; at: number };
      /** Whether the report is new (false: one more reporter of an earlier one). */
      created: boolean;
    };
    /** A report was given a verdict, by an administrator or a rule. */
    'phishing.report_judged': {
      accountId: number;
      reportId: number;
      verdict: ReportVerdict;
      at: number;
    };
  }
}
