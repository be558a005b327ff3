import { subscribe } from '../../../core/events.js';
import { forgetReporter } from './triage.repository.js';

/** What triage does when the directory changes: a deleted employee's address leaves their reports. */
export function subscribeTriage(): void {
  subscribe('employee.deleting', 'phishing.forget-reporter', (trx, { accountId, employeeId }) =>
    forgetReporter(trx, accountId, employeeId),
  );
}
