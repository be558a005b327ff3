import type { Selectable } from 'kysely';
import type { PhishingRecipientsTable } from '../../../core/db/schema.js';

/**
 * The columns of a phishing recipient that its reads select (tracking and reports in
 * simulation.recipients.repository.ts, results in results.repository.ts), written once.
 */

type RecipientColumn = keyof PhishingRecipientsTable & string;

/** Who a recipient is: its campaign, person, template and the groups it came from. */
const IDENTITY = [
  'id',
  'campaign_id',
  'employee_id',
  'employee_deleted_at',
  'template_key',
  'group_ids',
] as const;

/** Where a recipient has got to: its status and the first time of each step. */
const STEPS = [
  'status',
  'sent_at',
  'opened_at',
  'clicked_at',
  'submitted_at',
  'reported_at',
  'failed_at',
  'training_assigned_at',
] as const;

/** What the results show of each recipient (its row, without the token or the account). */
export const LISTED_RECIPIENT_COLUMNS = [...IDENTITY, 'planned_at', ...STEPS] as const;

/**
 * What tracking and reports read of a recipient: with its account, token, planned moment (a
 * report answers the result as the Customer API shows it) and the training it got.
 */
export const TRACKED_RECIPIENT_COLUMNS = [
  ...IDENTITY,
  'account_id',
  'token',
  'planned_at',
  ...STEPS,
  'enrollment_id',
  'click_announced_at',
] as const;

/** A listed recipient as the results read it. */
export type ListedRecipient = Pick<
  Selectable<PhishingRecipientsTable>,
  (typeof LISTED_RECIPIENT_COLUMNS)[number]
>;

/** Columns under a table alias, typed for Kysely's select: `aliased('r', ['id'])` is `['r.id']`. */
export function aliased<A extends string, const C extends readonly RecipientColumn[]>(
  alias: A,
  columns: C,
): { readonly [K in keyof C]: `${A}.${C[K]}` } {
  return columns.map((c) => `${alias}.${c}`) as unknown as { readonly [K in keyof C]: `${A}.${C[K]}` };
}
