import { sql } from 'kysely';
import { type Db, dialectOf } from '../../../core/db/database.js';
import { ownPhishingCampaignId } from './campaigns.repository.js';

/** The SQL of a phishing campaign's launch (campaigns.launch.commands.ts): its people, slice by slice. */

/**
 * The members of the campaign's groups with id in (after, upTo], the account's employees only,
 * once each, with the campaign's groups they are in as a JSON array text ascending (`[3,7]`,
 * made by the database: no per-row JSON in Node).
 */
export async function peopleOfSlice(
  trx: Db,
  accountId: number,
  campaignId: number,
  after: number,
  upTo: number,
): Promise<{ employee_id: number; group_ids: string }[]> {
  const groups =
    dialectOf(trx) === 'postgres'
      ? sql<string>`'[' || string_agg(cg.group_id::text, ',' order by cg.group_id) || ']'`
      : sql<string>`'[' || group_concat(cg.group_id, ',' order by cg.group_id) || ']'`;
  const rows = await trx
    .selectFrom('phishing_campaign_groups as cg')
    .innerJoin('phishing_campaigns as c', 'c.id', 'cg.campaign_id')
    .innerJoin('groups as g', (j) =>
      j.onRef('g.id', '=', 'cg.group_id').onRef('g.account_id', '=', 'c.account_id'),
    )
    .innerJoin('group_members as gm', 'gm.group_id', 'cg.group_id')
    .innerJoin('employees as e', (j) =>
      j.onRef('e.id', '=', 'gm.employee_id').onRef('e.account_id', '=', 'c.account_id'),
    )
    .select(['gm.employee_id', groups.as('group_ids')])
    .where('c.account_id', '=', accountId)
    .where('cg.campaign_id', '=', campaignId)
    .where('gm.employee_id', '>', after)
    .where('gm.employee_id', '<=', upTo)
    // Deactivated people (SCIM `active: false`) are sent no simulation.
    .where('e.active', '=', 1)
    .groupBy('gm.employee_id')
    .execute();
  return rows.map((r) => ({ employee_id: Number(r.employee_id), group_ids: r.group_ids }));
}

/** A slice's planned recipients, column by column (each array one entry per person). */
export interface PlannedSlice {
  employeeIds: number[];
  tokens: string[];
  templateKeys: string[];
  groupIds: string[];
  plannedAt: number[];
}

/**
 * Inserts a slice's recipients and queues one simulation for each (at `priority`), due at its planned moment.
 * PostgreSQL: one statement (the recipients inserted `returning` feed the messages insert), the
 * columns travelling as five array parameters. SQLite: the recipients from one JSON parameter,
 * then the messages as one `insert … select` of this campaign's recipients of the slice.
 * No `on conflict`: the campaign is locked and was a draft or scheduled, so it has no
 * recipients and no simulations yet, and the people of a slice are distinct; the unique indexes
 * (campaign, employee) and messages.phishing_recipient_id still refuse any duplicate.
 */
export async function insertSlice(
  trx: Db,
  accountId: number,
  campaignId: number,
  slice: PlannedSlice,
  range: { after: number; upTo: number },
  now: number,
  priority: number,
): Promise<void> {
  if (slice.employeeIds.length === 0) return;
  if (dialectOf(trx) === 'postgres') {
    await sql`with r as (
        insert into phishing_recipients
          (account_id, campaign_id, employee_id, token, template_key, group_ids, planned_at, status)
        select ${accountId}, ${campaignId}, u.employee_id, u.token, u.template_key, u.group_ids, u.planned_at, 'scheduled'
        from unnest(${slice.employeeIds}::bigint[], ${slice.tokens}::text[], ${slice.templateKeys}::text[],
          ${slice.groupIds}::text[], ${slice.plannedAt}::bigint[]) as u(employee_id, token, template_key, group_ids, planned_at)
        returning id, account_id, planned_at)
      insert into messages
        (account_id, kind, round, status, attempts, priority, next_attempt_at, created_at, phishing_recipient_id)
      select r.account_id, 'simulation', 0, 'queued', 0, ${priority}, r.planned_at, ${now}, r.id
      from r`.execute(trx);
    return;
  }
  const rows = new Array<unknown[]>(slice.employeeIds.length);
  for (let i = 0; i < rows.length; i++) {
    rows[i] = [
      slice.employeeIds[i],
      slice.tokens[i],
      slice.templateKeys[i],
      slice.groupIds[i],
      slice.plannedAt[i],
    ];
  }
  await sql`insert into phishing_recipients
      (account_id, campaign_id, employee_id, token, template_key, group_ids, planned_at, status)
    select ${accountId}, ${campaignId}, value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, 'scheduled'
    from json_each(${JSON.stringify(rows)})`.execute(trx);
  await trx
    .insertInto('messages')
    .columns([
      'account_id',
      'kind',
      'round',
      'status',
      'attempts',
      'priority',
      'next_attempt_at',
      'created_at',
      'phishing_recipient_id',
    ])
    .expression(
      trx
        .selectFrom('phishing_recipients as r')
        .select([
          'r.account_id',
          sql.lit('simulation').as('kind'),
          sql.lit(0).as('round'),
          sql.lit('queued').as('status'),
          sql.lit(0).as('attempts'),
          sql.lit(priority).as('priority'),
          'r.planned_at',
          sql.lit(now).as('created_at'),
          'r.id',
        ])
        // The campaign id itself in the condition (its (campaign, employee) index), the account
        // checked through the campaign: an (account, employee) index scan would read every
        // earlier campaign's recipients of the slice's people too.
        .where('r.campaign_id', '=', campaignId)
        .where((eb) => eb.exists(ownPhishingCampaignId(trx, accountId, campaignId)))
        .where('r.employee_id', '>', range.after)
        .where('r.employee_id', '<=', range.upTo),
    )
    .execute();
}

/** How many people a launch now would send to: the active members of the campaign's groups, once each. */
export async function countPeopleOfCampaign(db: Db, accountId: number, campaignId: number): Promise<number> {
  const row = await db
    .selectFrom('phishing_campaign_groups as cg')
    .innerJoin('phishing_campaigns as c', 'c.id', 'cg.campaign_id')
    .innerJoin('groups as g', (j) =>
      j.onRef('g.id', '=', 'cg.group_id').onRef('g.account_id', '=', 'c.account_id'),
    )
    .innerJoin('group_members as gm', 'gm.group_id', 'cg.group_id')
    .innerJoin('employees as e', (j) =>
      j.onRef('e.id', '=', 'gm.employee_id').onRef('e.account_id', '=', 'c.account_id'),
    )
    .select((eb) => eb.fn.count<number | string>('gm.employee_id').distinct().as('n'))
    .where('c.account_id', '=', accountId)
    .where('cg.campaign_id', '=', campaignId)
    .where('e.active', '=', 1)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * The earliest planned moment of each campaign's simulations not yet sent (recipients still
 * `scheduled`; the partial index phishing_recipients_next_send_idx walks them in order, and the first whose
 * simulation is still queued is the answer).
 */
export async function nextSendOfCampaigns(
  db: Db,
  accountId: number,
  campaignIds: number[],
): Promise<Map<number, number>> {
  const found = await Promise.all(
    campaignIds.map((id) =>
      db
        .selectFrom('phishing_recipients as r')
        // A simulation cancelled before it went (its employee deleted or deactivated) is no next send.
        .innerJoin('messages as m', (j) =>
          j.onRef('m.phishing_recipient_id', '=', 'r.id').onRef('m.account_id', '=', 'r.account_id'),
        )
        .select(['r.campaign_id', 'r.planned_at'])
        .where('r.campaign_id', '=', id)
        .where('r.account_id', '=', accountId)
        .where('r.status', '=', 'scheduled')
        .where('m.status', 'in', ['queued', 'sending'])
        .orderBy('r.planned_at')
        .limit(1)
        .executeTakeFirst(),
    ),
  );
  const out = new Map<number, number>();
  for (const row of found) if (row) out.set(Number(row.campaign_id), Number(row.planned_at));
  return out;
}
