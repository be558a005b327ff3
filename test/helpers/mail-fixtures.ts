import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../src/core/db/database.js';
import { employeeSearchText } from '../../src/core/search-text.js';
import { queueCampaignMessages } from '../../src/modules/mail/mail.queue.commands.js';

/**
 * Active training campaigns made directly in the database (as a launch leaves them): the
 * campaign, its courses, employees enrolled, and one invitation queued per enrollment.
 */

export const DAY_MS = 86_400_000;

export interface ActiveCampaign {
  accountId: number;
  campaignId: number;
  employeeIds: number[];
  enrollmentIds: number[];
  emails: string[];
}

export interface ActiveCampaignOptions {
  /** How many employees to enrol (default 1), or their names. */
  people?: number | { first_name: string; last_name: string; email?: string }[];
  name?: string;
  courses?: string[];
  dueAt?: number | null;
  reminderDays?: number[];
  launchedAt?: number;
  /** Queue the invitations (default true). */
  invite?: boolean;
  now?: number;
}

export async function makeAccountRow(db: Db, name = `Account ${randomBytes(4).toString('hex')}`) {
  const now = Date.now();
  return db
    .insertInto('accounts')
    .values({ name, created_at: now, updated_at: now })
    .returning(['id', 'name'])
    .executeTakeFirstOrThrow();
}

export async function makeActiveCampaign(
  db: Db,
  accountId: number,
  options: ActiveCampaignOptions = {},
): Promise<ActiveCampaign> {
  const now = options.now ?? Date.now();
  const tag = randomBytes(4).toString('hex');
  const people: { first_name: string; last_name: string; email?: string }[] =
    typeof options.people === 'object'
      ? options.people
      : Array.from({ length: options.people ?? 1 }, (_, i) => ({
          first_name: `Person${i}`,
          last_name: `Test ${tag}`,
        }));
  const campaign = await db
    .insertInto('training_campaigns')
    .values({
      account_id: accountId,
      name: options.name ?? `Campaign ${tag}`,
      status: 'active',
      start_at: options.launchedAt ?? now,
      due_at: options.dueAt === undefined ? now + 14 * DAY_MS : options.dueAt,
      reminder_days: JSON.stringify(options.reminderDays ?? []),
      launched_at: options.launchedAt ?? now,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const courses = options.courses ?? ['phishing'];
  await db
    .insertInto('campaign_courses')
    .values(courses.map((course_key, position) => ({ campaign_id: campaign.id, course_key, position })))
    .execute();
  const employeeIds: number[] = [];
  const emails: string[] = [];
  for (let start = 0; start < people.length; start += 500) {
    const rows = people.slice(start, start + 500).map((p, i) => {
      const email = p.email ?? `person${start + i}.${tag}@example.com`;
      emails.push(email);
      return {
        account_id: accountId,
        first_name: p.first_name,
        last_name: p.last_name,
        email,
        email_normalized: email.toLowerCase(),
        search_text: employeeSearchText({ ...p, email }),
        created_at: now,
        updated_at: now,
      };
    });
    const inserted = await db.insertInto('employees').values(rows).returning('id').execute();
    employeeIds.push(...inserted.map((r) => r.id));
  }
  const enrollmentIds: number[] = [];
  for (let start = 0; start < employeeIds.length; start += 500) {
    const inserted = await db
      .insertInto('enrollments')
      .values(
        employeeIds.slice(start, start + 500).map((employee_id) => ({
          account_id: accountId,
          campaign_id: campaign.id,
          employee_id,
          enrolled_at: now,
        })),
      )
      .returning('id')
      .execute();
    enrollmentIds.push(...inserted.map((r) => r.id));
  }
  if (options.invite !== false) {
    await queueCampaignMessages(db, { accountId, campaignId: campaign.id, kind: 'invitation', now });
  }
  if (people.length > 100) await sql`analyze`.execute(db);
  return { accountId, campaignId: campaign.id, employeeIds, enrollmentIds, emails };
}

/** The messages of a campaign, by id. */
export function campaignMessages(db: Db, campaignId: number) {
  return db.selectFrom('messages').selectAll().where('campaign_id', '=', campaignId).orderBy('id').execute();
}
