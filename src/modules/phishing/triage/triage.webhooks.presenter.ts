import type { Db } from '../../../core/db/database.js';
import type { DomainEvents } from '../../../core/events.js';
import { iso } from '../../../core/time.js';
import { presentReportSummary } from './triage.presenter.js';
import { getReport, REPORTERS_IN_LIST } from './triage.service.js';
import './triage.events.model.js';

/** The `data` of the webhook events `report.received` and `report.verdict`. */

/** A report as the Customer API lists it, read inside the emitting transaction. */
export async function presentReportOf(trx: Db, accountId: number, reportId: number) {
  const found = await getReport(trx, accountId, reportId);
  return presentReportSummary({ ...found, reporters: found.reporters.slice(0, REPORTERS_IN_LIST) });
}

export async function presentReportReceived(trx: Db, event: DomainEvents['phishing.report_received']) {
  const { reporter } = event;
  return {
    created: event.created,
    reporter: {
      address: reporter.address,
      employee_id: reporter.employeeId,
      channel: reporter.channel,
      reported_at: iso(reporter.at),
    },
    report: await presentReportOf(trx, event.accountId, event.reportId),
  };
}
