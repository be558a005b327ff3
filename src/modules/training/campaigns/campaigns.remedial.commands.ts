import type { Db } from '../../../core/db/database.js';
import { insertCampaign } from './campaigns.repository.js';
import { replaceCampaignCourses } from './campaigns.targets.service.js';

/**
 * The reminders of remedial training, in days before each person's own due date (the training
 * form's default): an administrator may change them on the training campaign's page.
 */
export const REMEDIAL_REMINDER_DAYS = [7, 1];

/**
 * Makes the training campaign a phishing campaign enrolls its failing people in: active from
 * `now`, with these courses, no target groups and no due date of its own (each enrollment has
 * its own), reminding people as REMEDIAL_REMINDER_DAYS says. Returns its id.
 */
export async function createRemedialCampaign(
  trx: Db,
  accountId: number,
  props: { name: string; description: string; courseKeys: string[]; now: number },
): Promise<number> {
  const { now } = props;
  const remedial = await insertCampaign(trx, accountId, {
    name: props.name,
    description: props.description,
    status: 'active',
    reminder_days: JSON.stringify(REMEDIAL_REMINDER_DAYS),
    start_at: now,
    launched_at: now,
    created_at: now,
    updated_at: now,
  });
  await replaceCampaignCourses(trx, accountId, remedial.id, props.courseKeys);
  return remedial.id;
}
