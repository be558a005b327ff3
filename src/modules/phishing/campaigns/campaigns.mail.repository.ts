import { sql } from 'kysely';
import type { Db } from '../../../core/db/database.js';

/** What a claimed simulation is composed of, read when it is sent (current name and address). */
export interface SimulationMailContext {
  id: number;
  /** 0 once the employee is deactivated (null when the employee is gone). */
  employee_active: number | null;
  account_name: string | null;
  recipient_id: number | null;
  token: string | null;
  employee_deleted_at: number | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  campaign_id: number | null;
  campaign_name: string | null;
  campaign_status: string | null;
  sender_domain: string | null;
  sender_name: string | null;
  sender_address: string | null;
  /** The account's default sender (Phishing settings). */
  account_sender_name: string | null;
  account_sender_address: string | null;
  account_sender_domain: string | null;
  /** The account's simulation header; null: SIMULATION_HEADER. */
  simulation_header: string | null;
  /** The template as the launch snapshotted it (JSON). */
  snapshot: string | null;
}

/**
 * What these claimed simulations (messages of kind `simulation`, of any accounts: the mail
 * worker's claims come from the one queue of every account) are composed of.
 */
export function simulationMailContexts(
  db: Db,
  messageIds: number[],
): Promise<Map<number, SimulationMailContext>> {
  return contexts(db, messageIds, undefined);
}

/** The same, of these messages of one account (the admin outbox, describing what they are). */
export function simulationMailContextsOfAccount(
  db: Db,
  accountId: number,
  messageIds: number[],
): Promise<Map<number, SimulationMailContext>> {
  return contexts(db, messageIds, accountId);
}

async function contexts(
  db: Db,
  messageIds: number[],
  accountId: number | undefined,
): Promise<Map<number, SimulationMailContext>> {
  if (messageIds.length === 0) return new Map();
  let query = db
    .selectFrom('messages as m')
    .leftJoin('accounts as a', 'a.id', 'm.account_id')
    .leftJoin('phishing_recipients as r', (j) =>
      j.onRef('r.id', '=', 'm.phishing_recipient_id').onRef('r.account_id', '=', 'm.account_id'),
    )
    .leftJoin('employees as p', (j) =>
      j.onRef('p.id', '=', 'r.employee_id').onRef('p.account_id', '=', 'm.account_id'),
    )
    .leftJoin('phishing_campaigns as pc', (j) =>
      j.onRef('pc.id', '=', 'r.campaign_id').onRef('pc.account_id', '=', 'm.account_id'),
    )
    .leftJoin('phishing_settings as ps', 'ps.account_id', 'm.account_id')
    .leftJoin('phishing_campaign_templates as pt', (j) =>
      j.onRef('pt.campaign_id', '=', 'pc.id').onRef('pt.template_key', '=', 'r.template_key'),
    )
    .select([
      'm.id',
      // {{company}}: the name employees know the organisation by.
      sql<string | null>`coalesce(a.display_name, a.name)`.as('account_name'),
      'r.id as recipient_id',
      'r.token',
      'r.employee_deleted_at',
      'p.first_name',
      'p.last_name',
      'p.email',
      'p.active as employee_active',
      'pc.id as campaign_id',
      'pc.name as campaign_name',
      'pc.status as campaign_status',
      'pc.sender_domain',
      'pc.sender_name',
      'pc.sender_address',
      'ps.sender_name as account_sender_name',
      'ps.sender_address as account_sender_address',
      'ps.sender_domain as account_sender_domain',
      'ps.simulation_header',
      'pt.snapshot',
    ])
    .where('m.id', 'in', messageIds)
    .where('m.kind', '=', 'simulation');
  if (accountId !== undefined) query = query.where('m.account_id', '=', accountId);
  const rows = await query.execute();
  return new Map(rows.map((r) => [r.id, r]));
}
