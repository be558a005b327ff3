import { subscribe } from '../../../core/events.js';
import { deleteTestSendsOfEmployee } from './delivery.repository.js';

/** What test sends do when the directory changes: a deleted employee's address goes with them. */
export function subscribeDelivery(): void {
  subscribe('employee.deleting', 'phishing.forget-test-sends', (trx, { accountId, employeeId }) =>
    deleteTestSendsOfEmployee(trx, accountId, employeeId),
  );
}
