import { subscribe } from '../../../core/events.js';
import { keepEnrollmentsOfDeletedEmployee } from './enrollments.repository.js';

/**
 * A deleted employee's training record stays (enrollments, progress, scores, counted in their
 * campaigns' figures and shown as "Deleted employee #<id>"); their mail goes.
 */
export function subscribeEnrollments(): void {
  subscribe('employee.deleting', 'training.keep-enrollments', (trx, { accountId, employeeId, at }) =>
    keepEnrollmentsOfDeletedEmployee(trx, accountId, employeeId, at),
  );
}
