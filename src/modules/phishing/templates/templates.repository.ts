import type { Insertable, Selectable, Updateable } from 'kysely';
import { byName } from '../../../core/db/collation.js';
import type { Db } from '../../../core/db/database.js';
import type { PhishingCampaignStatus, PhishingTemplatesTable } from '../../../core/db/schema.js';

/** An account's own phishing templates (`custom:<id>`): SQL only, every statement by account. */

export type PhishingTemplateRow = Selectable<PhishingTemplatesTable>;

/** What the library's list shows of a row (not its bodies). */
const SUMMARY_COLUMNS = [
  'id',
  'name',
  'summary',
  'subject',
  'sender_name',
  'difficulty',
  'category',
  'language',
  'cloned_from',
  'created_at',
  'updated_at',
] as const;
export type PhishingTemplateSummaryRow = Pick<PhishingTemplateRow, (typeof SUMMARY_COLUMNS)[number]>;

/** The account's own templates without their bodies, by name. */
export function listTemplateSummaryRows(db: Db, accountId: number): Promise<PhishingTemplateSummaryRow[]> {
  return db
    .selectFrom('phishing_templates')
    .select(SUMMARY_COLUMNS)
    .where('account_id', '=', accountId)
    .orderBy(byName(db, 'name'))
    .orderBy('id')
    .execute();
}

export function findTemplateRows(db: Db, accountId: number, ids: number[]): Promise<PhishingTemplateRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('phishing_templates')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', 'in', ids)
    .execute();
}

export function findTemplateRow(
  db: Db,
  accountId: number,
  id: number,
): Promise<PhishingTemplateRow | undefined> {
  return db
    .selectFrom('phishing_templates')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function insertTemplateRow(
  db: Db,
  accountId: number,
  values: Omit<Insertable<PhishingTemplatesTable>, 'account_id'>,
): Promise<PhishingTemplateRow> {
  return db
    .insertInto('phishing_templates')
    .values({ ...values, account_id: accountId })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updateTemplateRow(
  db: Db,
  accountId: number,
  id: number,
  values: Updateable<PhishingTemplatesTable>,
): Promise<PhishingTemplateRow | undefined> {
  return db
    .updateTable('phishing_templates')
    .set(values)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteTemplateRow(db: Db, accountId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('phishing_templates')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The account's phishing campaigns whose pool holds a template key, with their status. */
export function campaignsUsingTemplate(
  db: Db,
  accountId: number,
  templateKey: string,
): Promise<{ id: number; name: string; status: PhishingCampaignStatus }[]> {
  return db
    .selectFrom('phishing_campaign_templates as ct')
    .innerJoin('phishing_campaigns as c', 'c.id', 'ct.campaign_id')
    .select(['c.id', 'c.name', 'c.status'])
    .where('c.account_id', '=', accountId)
    .where('ct.template_key', '=', templateKey)
    .orderBy('c.id')
    .execute();
}

/** Takes a template out of the pools of the account's draft campaigns (they never sent it). */
export async function removeTemplateFromDrafts(
  db: Db,
  accountId: number,
  templateKey: string,
): Promise<void> {
  await db
    .deleteFrom('phishing_campaign_templates')
    .where('template_key', '=', templateKey)
    .where('campaign_id', 'in', (eb) =>
      eb
        .selectFrom('phishing_campaigns as owner')
        .select('owner.id')
        .where('owner.account_id', '=', accountId)
        .where('owner.status', '=', 'draft'),
    )
    .execute();
}
