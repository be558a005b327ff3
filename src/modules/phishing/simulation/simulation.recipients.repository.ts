import { sql } from 'kysely';
import type { Db } from '../../../core/db/database.js';
import { dialectOf } from '../../../core/db/database.js';
import { prepared } from '../../../core/db/prepared.js';
import type { PhishingRecipientStatus } from '../../../core/db/schema.js';
import { aliased, TRACKED_RECIPIENT_COLUMNS } from './simulation.recipient-columns.repository.js';

/**
 * SQL of one phishing recipient as tracking, reports and reclassification move it. Every
 * function takes the account first and filters by it, except the token look-up, which is how a
 * tracking link finds its account.
 */

const RECIPIENT_COLUMNS = aliased('r', TRACKED_RECIPIENT_COLUMNS);

const CAMPAIGN_COLUMNS = [
  'c.status as campaign_status',
  'c.landing',
  'c.remedial_on',
  'c.remedial_campaign_id',
  'c.remedial_due_days',
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

const byToken = prepared((db, p: { token: string }) => withCampaign(db).where('r.token', '=', p.token));
// SQLite: the join costs several times its two halves (measured: ~100 µs against ~10 + ~7), so the
// hot path reads the recipient, then its campaign by primary key.
const recipientOnlyByToken = prepared((db, p: { token: string }) =>
  db.selectFrom('phishing_recipients as r').select(RECIPIENT_COLUMNS).where('r.token', '=', p.token),
);
const recipientOnlyForUpdate = prepared((db, p: { accountId: number; recipientId: number }) =>
  db
    .selectFrom('phishing_recipients as r')
    .select(RECIPIENT_COLUMNS)
    .where('r.account_id', '=', p.accountId)
    .where('r.id', '=', p.recipientId),
);
const campaignOfRecipient = prepared((db, p: { accountId: number; campaignId: number }) =>
  db
    .selectFrom('phishing_campaigns as c')
    .select(CAMPAIGN_COLUMNS)
    .where('c.account_id', '=', p.accountId)
    .where('c.id', '=', p.campaignId),
);

export type RecipientWithCampaign = NonNullable<Awaited<ReturnType<typeof byToken.executeTakeFirst>>>;

async function withItsCampaign(
  db: Db,
  recipient: Awaited<ReturnType<typeof recipientOnlyByToken.executeTakeFirst>>,
): Promise<RecipientWithCampaign | undefined> {
  if (!recipient) return undefined;
  const campaign = await campaignOfRecipient.executeTakeFirst(db, {
    accountId: recipient.account_id,
    campaignId: recipient.campaign_id,
  });
  return campaign ? { ...recipient, ...campaign } : undefined;
}

// Cross-account by design: a simulation's token identifies its account by itself (the link in the email).
export async function recipientByTokenOfAnyAccount(
  db: Db,
  token: string,
): Promise<RecipientWithCampaign | undefined> {
  if (dialectOf(db) === 'postgres') return byToken.executeTakeFirst(db, { token });
  return withItsCampaign(db, await recipientOnlyByToken.executeTakeFirst(db, { token }));
}

/**
 * The account's recipients among `tokens` (a report names its simulations by their tokens), in
 * one query; the caller bounds the list (a report considers at most REPORT_TOKENS_MAX).
 */
export function recipientsByTokens(
  db: Db,
  accountId: number,
  tokens: readonly string[],
): Promise<RecipientWithCampaign[]> {
  if (tokens.length === 0) return Promise.resolve([]);
  return withCampaign(db)
    .where('r.account_id', '=', accountId)
    .where('r.token', 'in', [...tokens])
    .execute();
}

/** The account's recipient by id, locked for the transaction on PostgreSQL (SQLite's write transaction already is). */
const forUpdate = prepared((db, p: { accountId: number; recipientId: number }) =>
  withCampaign(db)
    .where('r.account_id', '=', p.accountId)
    .where('r.id', '=', p.recipientId)
    .$if(dialectOf(db) === 'postgres', (q) => q.forUpdate('r')),
);

export async function recipientForUpdate(
  trx: Db,
  accountId: number,
  recipientId: number,
): Promise<RecipientWithCampaign | undefined> {
  if (dialectOf(trx) === 'postgres') return forUpdate.executeTakeFirst(trx, { accountId, recipientId });
  // SQLite's write transaction is exclusive: no lock to take.
  return withItsCampaign(trx, await recipientOnlyForUpdate.executeTakeFirst(trx, { accountId, recipientId }));
}

/**
 * The account's recipients among `ids`, locked in id order (PostgreSQL: a batch of hits reads them
 * in one round trip). `skipLocked`: those another transaction holds are left out (background work
 * that another worker is already doing).
 */
export function recipientsForUpdate(
  trx: Db,
  accountId: number,
  ids: readonly number[],
  options: { skipLocked?: boolean } = {},
) {
  return withCampaign(trx)
    .where('r.account_id', '=', accountId)
    .where('r.id', 'in', [...ids])
    .orderBy('r.id')
    .$if(dialectOf(trx) === 'postgres', (q) =>
      options.skipLocked ? q.forUpdate('r').skipLocked() : q.forUpdate('r'),
    )
    .execute();
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

const writeSteps = prepared(
  (db, p: { [K in keyof RecipientSteps]: RecipientSteps[K] } & { accountId: number; recipientId: number }) =>
    db
      .updateTable('phishing_recipients')
      .set({
        status: p.status,
        sent_at: p.sent_at,
        opened_at: p.opened_at,
        clicked_at: p.clicked_at,
        submitted_at: p.submitted_at,
        reported_at: p.reported_at,
      })
      .where('account_id', '=', p.accountId)
      .where('id', '=', p.recipientId),
);

/** Writes all of a recipient's first times and status (its row locked by the caller's transaction): one prepared statement. */
export async function writeRecipientSteps(
  trx: Db,
  accountId: number,
  recipientId: number,
  steps: RecipientSteps,
): Promise<void> {
  await writeSteps.execute(trx, { ...steps, accountId, recipientId });
}

const employee = prepared((db, p: { accountId: number; employeeId: number }) =>
  db
    .selectFrom('employees as e')
    .select(['e.first_name', 'e.last_name', 'e.email'])
    .where('e.account_id', '=', p.accountId)
    .where('e.id', '=', p.employeeId),
);
const accountName = prepared((db, p: { accountId: number }) =>
  // The name employees know the organisation by: its display name, else its name.
  db
    .selectFrom('accounts as a')
    .select(sql<string>`coalesce(a.display_name, a.name)`.as('name'))
    .where('a.id', '=', p.accountId),
);

/** What the person sees in the email and on the teachable page: their name and address now, the account's name. */
export async function personOfRecipient(db: Db, accountId: number, employeeId: number) {
  // Two primary-key reads: cheaper on SQLite than their join (see recipientByTokenOfAnyAccount).
  const person = await employee.executeTakeFirst(db, { accountId, employeeId });
  if (!person) return undefined;
  const account = await accountName.executeTakeFirst(db, { accountId });
  return account ? { ...person, company: account.name } : undefined;
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

/**
 * A simulation's delivery outcome on its recipient, only while it is still `scheduled` (so a
 * second record changes nothing); what the figures need of the recipient when it moved.
 */
export function moveScheduledRecipient(
  trx: Db,
  accountId: number,
  recipientId: number,
  outcome: 'sent' | 'failed',
  at: number,
) {
  return trx
    .updateTable('phishing_recipients')
    .set(outcome === 'sent' ? { status: 'sent', sent_at: at } : { status: 'failed', failed_at: at })
    .where('account_id', '=', accountId)
    .where('id', '=', recipientId)
    .where('status', '=', 'scheduled')
    .returning(['campaign_id', 'group_ids', 'template_key'])
    .executeTakeFirst();
}

/**
 * Recipients still `scheduled` of running or completed campaigns whose message the queue has
 * sent or failed, with that outcome. Cross-account by design: one sweep over every account.
 */
export function scheduledRecipientsWithOutcomeOfAllAccounts(db: Db, now: number, limit: number) {
  return db
    .selectFrom('phishing_campaigns as c')
    .innerJoin('phishing_recipients as r', 'r.campaign_id', 'c.id')
    .innerJoin('messages as m', (j) =>
      j.onRef('m.phishing_recipient_id', '=', 'r.id').onRef('m.account_id', '=', 'r.account_id'),
    )
    .select(['r.id', 'r.account_id', 'm.status', 'm.sent_at'])
    .where('c.status', 'in', ['running', 'completed'])
    .where('r.status', '=', 'scheduled')
    .where('r.planned_at', '<=', now)
    .where('m.status', 'in', ['sent', 'failed'])
    .limit(limit)
    .execute();
}
