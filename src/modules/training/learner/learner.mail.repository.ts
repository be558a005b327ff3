import { sql } from 'kysely';
import type { Db } from '../../../core/db/database.js';
import type { CampaignStatus, MessageKind } from '../../../core/db/schema.js';

/** Everything a training message is rendered from, read when it is sent (current names, dates, courses). */
export interface TrainingMessageContext {
  id: number;
  kind: MessageKind;
  /** 0 once the employee is deactivated (null when the employee is gone). */
  employee_active: number | null;
  account_id: number;
  account_name: string | null;
  enrollment_id: number | null;
  started_at: number | null;
  completed_at: number | null;
  first_name: string | null;
  email: string | null;
  campaign_id: number | null;
  campaign_status: CampaignStatus | null;
  due_at: number | null;
}

/**
 * What these claimed training messages, of any accounts (the mail worker's claims come from the
 * one queue of every account), are rendered from: each with (left-joined) its enrollment `e`,
 * employee `p` and campaign `c`, each of the message's account.
 */
export async function trainingMessageContexts(
  db: Db,
  messageIds: number[],
): Promise<Map<number, TrainingMessageContext>> {
  if (messageIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('messages as m')
    .where('m.id', 'in', messageIds)
    .leftJoin('enrollments as e', (j) =>
      j.onRef('e.id', '=', 'm.enrollment_id').onRef('e.account_id', '=', 'm.account_id'),
    )
    .leftJoin('employees as p', (j) =>
      j.onRef('p.id', '=', 'e.employee_id').onRef('p.account_id', '=', 'm.account_id'),
    )
    .leftJoin('training_campaigns as c', (j) =>
      j.onRef('c.id', '=', 'm.campaign_id').onRef('c.account_id', '=', 'm.account_id'),
    )
    .leftJoin('accounts as a', 'a.id', 'm.account_id')
    .select([
      'm.id',
      'm.kind',
      'm.account_id',
      'a.name as account_name',
      'e.id as enrollment_id',
      'e.started_at',
      'e.completed_at',
      'p.first_name',
      'p.email',
      'p.active as employee_active',
      'c.id as campaign_id',
      'c.status as campaign_status',
      // An enrollment's own due date (remedial training) comes before its campaign's.
      sql<number | null>`coalesce(e.due_at, c.due_at)`.as('due_at'),
    ])
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}
