import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { makeAccount, makeEmployee, makeGroup } from '../../../../test/helpers/factories.js';
import { BROWSER, listenToWebhooks, seedPhishingCampaign } from '../../../../test/helpers/phishing.js';
import { bulkUpsertEmployees } from '../../directory/employees/employees.bulk.commands.js';
import { importEmployees } from '../../directory/employees/employees.import.service.js';
import { deleteEmployee } from '../../directory/employees/employees.service.js';
import { addGroupMembers, removeGroupMembers } from '../../directory/groups/groups.membership.commands.js';
import { recipientByTokenOfAnyAccount } from '../../phishing/simulation/simulation.recipients.repository.js';
import { createStepMachine } from '../../phishing/tracking/tracking.steps.batch.commands.js';
import { recordStep } from '../../phishing/tracking/tracking.steps.commands.js';

// Subscriptions: the domain events of the directory, training and phishing → webhook events, in
// the emitting transaction; an account without endpoints gets none (and pays one indexed read).

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const storedEvents = (accountId: number) =>
  t.app.db.selectFrom('webhook_events').select('type').where('account_id', '=', accountId).execute();

describe('webhook subscribers', () => {
  it('stores nothing for an account without endpoints', async () => {
    const account = await makeAccount(t.app);
    const group = await makeGroup(t.app, account.id);
    const ann = await makeEmployee(t.app, account.id);
    await addGroupMembers(t.app.db, account.id, group.id, [ann.id]);
    await bulkUpsertEmployees(t.app.db, account.id, [
      { first_name: 'Bo', last_name: 'Li', email: 'bo@example.com' },
    ]);
    await deleteEmployee(t.app.db, account.id, ann.id);
    expect(await storedEvents(account.id)).toEqual([]);
  });

  it('stores one event per employee a bulk upsert creates or changes, created first', async () => {
    const account = await makeAccount(t.app);
    const kept = await makeEmployee(t.app, account.id, { email: 'kept@example.com' });
    const hooks = await listenToWebhooks(t.app, account.id);
    await bulkUpsertEmployees(t.app.db, account.id, [
      { first_name: 'Renamed', last_name: kept.last_name, email: 'kept@example.com' },
      { first_name: 'New', last_name: 'One', email: 'new.one@example.com' },
      { first_name: 'New', last_name: 'Two', email: 'new.two@example.com' },
    ]);
    const events = await hooks.events();
    expect(events.map((e) => [e.type, (e.data as { email: string }).email])).toEqual([
      ['employee.created', 'new.one@example.com'],
      ['employee.created', 'new.two@example.com'],
      ['employee.updated', 'kept@example.com'],
    ]);
  });

  it('announces the employees an import creates, like any other creation (drift closed)', async () => {
    const account = await makeAccount(t.app);
    await makeEmployee(t.app, account.id, { email: 'there@example.com' });
    const hooks = await listenToWebhooks(t.app, account.id);
    const outcome = await importEmployees(
      t.app.db,
      account.id,
      [
        { first_name: 'Al', last_name: 'Ready', email: 'there@example.com' },
        { first_name: 'New', last_name: 'Comer', email: 'new.comer@example.com' },
      ],
      { dryRun: false },
    );
    expect(outcome.created).toBe(1);
    const events = await hooks.events();
    expect(events.map((e) => [e.type, (e.data as { email: string }).email])).toEqual([
      ['employee.created', 'new.comer@example.com'],
    ]);
  });

  it('describes membership changes and a deletion with each group the employee left', async () => {
    const account = await makeAccount(t.app);
    const sales = await makeGroup(t.app, account.id, 'Sales');
    const ann = await makeEmployee(t.app, account.id);
    const bo = await makeEmployee(t.app, account.id);
    const hooks = await listenToWebhooks(t.app, account.id);
    await addGroupMembers(t.app.db, account.id, sales.id, [ann.id, bo.id]);
    await removeGroupMembers(t.app.db, account.id, sales.id, [bo.id]);
    await deleteEmployee(t.app.db, account.id, ann.id);
    const events = await hooks.events();
    expect(events.map((e) => ({ type: e.type, data: e.data }))).toMatchObject([
      {
        type: 'group.membership_changed',
        data: { group: { id: sales.id }, added_employee_ids: [ann.id, bo.id], removed_employee_ids: [] },
      },
      {
        type: 'group.membership_changed',
        data: {
          group: { id: sales.id, employee_count: 1 },
          added_employee_ids: [],
          removed_employee_ids: [bo.id],
        },
      },
      { type: 'employee.deleted', data: { id: ann.id } },
      {
        type: 'group.membership_changed',
        data: {
          group: { id: sales.id, employee_count: 0 },
          added_employee_ids: [],
          removed_employee_ids: [ann.id],
        },
      },
    ]);
  });

  it('announces a remedial enrollment as training.enrollment_created, like any enrollment (issue 20, item 7)', async () => {
    const account = await makeAccount(t.app);
    const c = await seedPhishingCampaign(t.app, account.id, {
      remedial: true,
      remedialOn: 'submit',
      people: 1,
    });
    const hooks = await listenToWebhooks(t.app, account.id);
    const person = c.people[0]!;
    const recipient = await recipientByTokenOfAnyAccount(t.app.db, person.token);
    const step = await recordStep(t.app.db, createStepMachine(), recipient!, {
      kind: 'submit',
      at: Date.now(),
      method: 'POST',
      headers: { 'user-agent': BROWSER },
      clientAddress: '192.0.2.230',
    });
    expect(step.trainingAssigned).toBe(true);
    const events = await hooks.events();
    // A submission is certain at once, and implies the click.
    expect(events.map((e) => e.type).sort()).toEqual([
      'phishing.simulation_clicked',
      'phishing.simulation_submitted',
      'training.enrollment_created',
    ]);
    const created = events.find((e) => e.type === 'training.enrollment_created');
    expect(created?.data).toMatchObject({
      campaign_id: c.remedialId,
      enrollment: { employee: { id: person.employee.id }, status: 'not_started' },
    });
  });
});
