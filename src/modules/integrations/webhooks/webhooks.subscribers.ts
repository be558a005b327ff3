import { subscribe, watchEvents } from '../../../core/events.js';
import { groupMemberIds, groupsHolding, presentEmployee, presentGroup } from '../../directory/index.js';
import {
  presentPhishingCampaignOf,
  presentReportOf,
  presentReportReceived,
  presentSimulationStep,
} from '../../phishing/index.js';
import { presentTrainingChange } from '../../training/index.js';
import { emitWebhookEvents, type WebhookEventInput, webhooksListen } from './webhooks.emit.commands.js';

/**
 * Webhook events are made from the domain events their owners emit, inside the same transaction
 * (an outbox). An account without endpoints pays one indexed read per change, and the payloads
 * are built only when an enabled endpoint listens (emitWebhookEvents).
 */
export function subscribeWebhooks(): void {
  subscribeDirectory();
  subscribeTraining();
  subscribePhishing();
}

function subscribeTraining(): void {
  // Launches, completions, and enrollments created (launch, newcomers, remedial), completed, overdue.
  subscribe('training.campaign_changed', 'webhooks', async (trx, change) => {
    await emitWebhookEvents(trx, change.accountId, () => presentTrainingChange(trx, change), change.now);
  });
}

function subscribePhishing(): void {
  for (const type of ['phishing.campaign_launched', 'phishing.campaign_completed'] as const) {
    subscribe(type, 'webhooks', async (trx, { accountId, campaignId }) => {
      await emitWebhookEvents(trx, accountId, async () => [
        { type, data: await presentPhishingCampaignOf(trx, accountId, campaignId) },
      ]);
    });
  }
  subscribe('phishing.report_received', 'webhooks', async (trx, event) => {
    await emitWebhookEvents(
      trx,
      event.accountId,
      async () => [{ type: 'report.received', data: await presentReportReceived(trx, event) }],
      event.reporter.at,
    );
  });
  subscribe('phishing.report_judged', 'webhooks', async (trx, { accountId, reportId, at }) => {
    await emitWebhookEvents(
      trx,
      accountId,
      async () => [{ type: 'report.verdict', data: await presentReportOf(trx, accountId, reportId) }],
      at,
    );
  });
  subscribe('phishing.simulation_stepped', 'webhooks', async (trx, { accountId, simulation, steps }) => {
    await emitWebhookEvents(
      trx,
      accountId,
      steps.map((step) => ({ type: step.type, data: presentSimulationStep(simulation, step.at) })),
    );
  });
}

function subscribeDirectory(): void {
  // Asked before the insert: without a listener, the insert runs without a transaction of its own.
  watchEvents('employee.created', 'webhooks', async (db, { accountId }) => {
    if (!(await webhooksListen(db, accountId, ['employee.created']))) return undefined;
    return async (trx, { employee }) => {
      await emitWebhookEvents(trx, accountId, () => [
        { type: 'employee.created', data: presentEmployee(employee) },
      ]);
    };
  });
  subscribe('employee.updated', 'webhooks', async (trx, { accountId, employee }) => {
    await emitWebhookEvents(trx, accountId, () => [
      { type: 'employee.updated', data: presentEmployee(employee) },
    ]);
  });
  // One event row per created or changed employee, in one statement per 500 (the bulk upsert).
  subscribe('employees.upserted', 'webhooks', async (trx, { accountId, created, updated }) => {
    await emitWebhookEvents(trx, accountId, () => [
      ...created.map((e) => ({ type: 'employee.created' as const, data: presentEmployee(e) })),
      ...updated.map((e) => ({ type: 'employee.updated' as const, data: presentEmployee(e) })),
    ]);
  });
  // The deletion, and each group the employee left (their memberships still exist at this point).
  subscribe('employee.deleting', 'webhooks', async (trx, { accountId, employeeId, at }) => {
    await emitWebhookEvents(
      trx,
      accountId,
      async (): Promise<WebhookEventInput[]> => [
        { type: 'employee.deleted', data: { id: employeeId } },
        ...(await groupsHolding(trx, accountId, employeeId)).map((group) => ({
          type: 'group.membership_changed' as const,
          data: { group: presentGroup(group), added_employee_ids: [], removed_employee_ids: [employeeId] },
        })),
      ],
      at,
    );
  });
  subscribe('group.created', 'webhooks', async (trx, { accountId, group }) => {
    await emitWebhookEvents(trx, accountId, () => [{ type: 'group.created', data: presentGroup(group) }]);
  });
  subscribe('group.updated', 'webhooks', async (trx, { accountId, group }) => {
    await emitWebhookEvents(trx, accountId, () => [{ type: 'group.updated', data: presentGroup(group) }]);
  });
  subscribe('group.deleted', 'webhooks', async (trx, { accountId, groupId }) => {
    await emitWebhookEvents(trx, accountId, [{ type: 'group.deleted', data: { id: groupId } }]);
  });
  // The ids added and removed: read before and after the change, only when an endpoint listens.
  watchEvents('group.membership_changed', 'webhooks', async (trx, { accountId, groupId }) => {
    if (!(await webhooksListen(trx, accountId, ['group.membership_changed']))) return undefined;
    const before = await groupMemberIds(trx, accountId, groupId);
    return async (trx, { group, memberIds }) => {
      const after = memberIds ?? (await groupMemberIds(trx, accountId, groupId));
      const had = new Set(before);
      const has = new Set(after);
      const added = after.filter((id) => !had.has(id));
      const removed = before.filter((id) => !has.has(id));
      if (added.length + removed.length === 0) return;
      await emitWebhookEvents(trx, accountId, [
        {
          type: 'group.membership_changed',
          data: { group: presentGroup(group), added_employee_ids: added, removed_employee_ids: removed },
        },
      ]);
    };
  });
}
