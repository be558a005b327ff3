import { recordAudit } from '../../../core/audit/audit.js';
import type { Db } from '../../../core/db/database.js';
import { AppError, FieldErrorCollector } from '../../../core/errors.js';
import { normalizeEmail } from '../../../core/fields.js';
import type { SenderPolicy } from '../settings/settings.sender.model.js';
import { checkEffectiveSenderDomain } from '../settings/settings.sender.service.js';
import { phishingTemplateNotFound, templatesByKeys } from '../templates/templates.lookup.service.js';
import { newTestToken, testSendWait } from './delivery.model.js';
import { employeeByAddress, insertTestSend, testSendTimesSince } from './delivery.repository.js';
import { getTestSend, type TestSendView } from './delivery.service.js';

const HOUR_MS = 3_600_000;

/**
 * Sends one simulation now to one of the account's employees, outside every campaign: a test of
 * whether mail lands. Only an employee of the account (active) may receive it, so nobody outside
 * gets mail; the template is one the account may use; the sender domain is checked as a launch
 * checks it. At most TEST_SENDS_PER_HOUR an hour per account (429 `too_many_test_sends`). The
 * message goes through the mail queue before bulk mail (someone is waiting for it).
 */
export async function sendTestSimulation(
  db: Db,
  input: { accountId: number; adminId: number | null; email: unknown; templateKey: unknown },
  policy: SenderPolicy,
  now = Date.now(),
): Promise<TestSendView> {
  const { accountId } = input;
  const errors = new FieldErrorCollector();
  const email = typeof input.email === 'string' ? input.email.trim() : '';
  if (email === '') errors.add('email', 'is required: the address of one of the account’s employees');
  const templateKey = typeof input.templateKey === 'string' ? input.templateKey : '';
  if (templateKey === '') errors.add('template_key', 'is required (builtin:<slug> or custom:<id>)');
  errors.throwIfAny();

  const employee = await employeeByAddress(db, accountId, normalizeEmail(email));
  if (!employee) {
    errors.add(
      'email',
      'is not an employee of this account: a test send goes only to the account’s own employees (add the person under Employees first)',
    );
  } else if (employee.active === 0) {
    errors.add('email', 'belongs to a deactivated employee, who receives no simulations');
  }
  errors.throwIfAny();
  const template = (await templatesByKeys(db, accountId, [templateKey])).get(templateKey);
  if (!template) throw phishingTemplateNotFound();
  await checkEffectiveSenderDomain(db, accountId, null, policy, errors);
  errors.throwIfAny();

  const id = await db.transaction().execute(async (trx) => {
    // Counted inside the transaction that adds one, so two at once cannot both pass at the limit
    // on SQLite (one writer); on PostgreSQL two racing requests may pass by one, which is harmless.
    const wait = testSendWait(await testSendTimesSince(trx, accountId, now - HOUR_MS), now);
    if (wait !== null) {
      throw new AppError('too_many_test_sends', { headers: { 'Retry-After': String(wait) } });
    }
    const target = employee as { id: number; email: string };
    await recordAudit(trx, {
      accountId,
      action: 'phishing_test_send.sent',
      object: { type: 'employee', id: target.id, label: target.email },
      changes: { template_key: { from: null, to: templateKey } },
    });
    return insertTestSend(trx, {
      accountId,
      token: newTestToken(),
      employeeId: target.id,
      email: target.email,
      templateKey,
      templateName: template.name,
      snapshot: JSON.stringify(template.content),
      adminId: input.adminId,
      subject: template.content.subject,
      at: now,
    });
  });
  return getTestSend(db, accountId, id);
}
