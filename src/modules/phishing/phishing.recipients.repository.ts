import type { Db } from '../../db/database.js';
import { dialectOf } from '../../db/database.js';
import type { PhishingRecipientStatus } from '../../db/schema.js';

/**
 * SQL of one phishing recipient as tracking, reports and reclassification move it. Every
 * function takes the account first and filters by it, except the token look-up, which is how a
 * tracking link finds its account.
 */

const RECIPIENT_COLUMNS = [
  'r.id',
  'r.account_id',
  'r.campaign_id',
  'r.employee_id',
  'r.employee_deleted_at',
  'r.token',
  'r.template_key',
  'r.group_ids',
  'r.status',
  'r.sent_at',
  'r.opened_at',
  'r.clicked_at',
  'r.submitted_at',
  'r.reported_at',
  'r.failed_at',
  'r.training_assigned_at',
  'r.enrollment_id',
] as const;

const CAMPAIGN_COLUMNS = [
  'c.status as campaign_status',
  'c.landing',
  'c.remedial_on',
  'c.remedial_campaign_id',
  'c.automated_window_seconds',
  'c.sender_domain',
] as const;

function withCampaign(db: Db) {
  return db
    .selectFrom('phishing_recipients as r')
    .innerJoin('phishing_campaigns as c', (join) =>
      join.onRef('c.id', '=', 'r.campaign_id').onRef('c.account_id', '=', 'r.account_id'),
    )
    .select([...RECIPIENT_COLUMNS, ...CAMPAIGN_COLUMNS]);
}

export type RecipientWithCampaign = NonNullable<Awaited<ReturnType<typeof recipientByTokenOfAnyAccount>>>;

// Cross-account by design: a simulation's token identifies its account by itself (the link in the email).
export function recipientByTokenOfAnyAccount(db: Db, token: string) {
  return withCampaign(db).where('r.token', '=', token).executeTakeFirst();
}

/** The account's recipient by its token (a report names the simulation by the token). */
export function recipientByToken(db: Db, accountId: number, token: string) {
  return withCampaign(db)
    .where('r.account_id', '=', accountId)
    .where('r.token', '=', token)
    .executeTakeFirst();
}

/** The account's recipient by id, locked for the transaction on PostgreSQL (SQLite's write transaction already is). */
export function recipientForUpdate(trx: Db, accountId: number, recipientId: number) {
  return withCampaign(trx)
    .where('r.account_id', '=', accountId)
    .where('r.id', '=', recipientId)
    .$if(dialectOf(trx) === 'postgres', (q) => q.forUpdate('r'))
    .executeTakeFirst();
}

/** The account's recipient of one of its campaigns (the admin timeline). */
export function recipientOfCampaign(db: Db, accountId: number, campaignId: number, recipientId: number) {
  return withCampaign(db)
    .where('r.account_id', '=', accountId)
    .where('r.campaign_id', '=', campaignId)
    .where('r.id', '=', recipientId)
    .executeTakeFirst();
}

export interface RecipientSteps {
  status: PhishingRecipientStatus;
  sent_at: number | null;
  opened_at: number | null;
  clicked_at: number | null;
  submitted_at: number | null;
  reported_at: number | null;
}

export async function updateRecipientSteps(
  trx: Db,
  accountId: number,
  recipientId: number,
  steps: Partial<RecipientSteps> & { training_assigned_at?: number; enrollment_id?: number },
): Promise<void> {
  if (Object.keys(steps).length === 0) return;
  await trx
    .updateTable('phishing_recipients')
    .set(steps)
    .where('account_id', '=', accountId)
    .where('id', '=', recipientId)
    .execute();
}

/** What the person sees in the email and on the teachable page: their name and address now, the account's name. */
export function personOfRecipient(db: Db, accountId: number, employeeId: number) {
  return db
    .selectFrom('employees as e')
    .innerJoin('accounts as a', 'a.id', 'e.account_id')
    .select(['e.first_name', 'e.last_name', 'e.email', 'a.name as company'])
    .where('e.account_id', '=', accountId)
    .where('e.id', '=', employeeId)
    .executeTakeFirst();
}

/** The snapshot (JSON) of the template the recipient was sent, taken at launch. */
export async function templateSnapshotOf(
  db: Db,
  accountId: number,
  campaignId: number,
  templateKey: string,
): Promise<string | null> {
  const row = await db
    .selectFrom('phishing_campaign_templates')
    .select('snapshot')
    .where('campaign_id', '=', (eb) =>
      eb
        .selectFrom('phishing_campaigns')
        .select('id')
        .where('id', '=', campaignId)
        .where('account_id', '=', accountId),
    )
    .where('template_key', '=', templateKey)
    .executeTakeFirst();
  return row?.snapshot ?? null;
}

/** The course keys of the training campaign that enrols people who fail (for the remedial enrollment). */
export function remedialCampaignOf(trx: Db, accountId: number, trainingCampaignId: number) {
  return trx
    .selectFrom('training_campaigns')
    .select(['id', 'status'])
    .where('account_id', '=', accountId)
    .where('id', '=', trainingCampaignId)
    .executeTakeFirst();
}
