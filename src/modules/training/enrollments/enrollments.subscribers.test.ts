import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { makeEnrollment } from '../../../../test/helpers/learner.js';
import { deleteEmployee } from '../../directory/employees/employees.service.js';

// Subscription: `employee.deleting` → the deleted employee's enrollments stay, marked deleted.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

describe('enrollment subscribers', () => {
  it('keeps a deleted employee’s enrollment, marked with the deletion time', async () => {
    const e = await makeEnrollment(t.app.db, { status: 'active' });
    const before = Date.now();
    await deleteEmployee(t.app.db, e.accountId, e.employeeId);
    const kept = await t.app.db
      .selectFrom('enrollments')
      .select(['employee_id', 'employee_deleted_at'])
      .where('id', '=', e.enrollmentId)
      .executeTakeFirstOrThrow();
    expect(kept.employee_id).toBe(e.employeeId);
    expect(kept.employee_deleted_at).toBeGreaterThanOrEqual(before);
  });
});
