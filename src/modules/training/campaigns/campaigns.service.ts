import { diffFields, recordAudit } from '../../../core/audit/audit.js';
import type { Db } from '../../../core/db/database.js';
import type { GroupScope } from '../../../core/db/group-scope.js';
import type { CampaignStatus } from '../../../core/db/schema.js';
import { AppError, FieldErrorCollector, validationFailed } from '../../../core/errors.js';
import {
  fetchPage,
  type ListPage,
  type ListWindow,
  type Page,
  type PageRequest,
  readList,
} from '../../../core/pagination.js';
import { getAccount } from '../../access/index.js';
import { fieldsLocked } from '../../campaigns/index.js';
import { coursesOfCampaigns, findCourses } from '../courses/courses.lookup.service.js';
import {
  type CampaignAction,
  type CampaignChanges,
  type CampaignField,
  checkCampaignInput,
  checkReadyToRun,
  isEditable,
  TRAINING_LIFECYCLE,
} from './campaigns.model.js';
import {
  type CampaignRow,
  countCampaigns,
  type EnrollmentCounts,
  enrollmentCounts,
  findCampaign,
  insertCampaign,
  listCampaigns,
  lockCampaign,
  updateCampaignRow,
} from './campaigns.repository.js';
import {
  existingGroupIds,
  type GroupRef,
  groupsOfCampaigns,
  replaceCampaignCourses,
  replaceCampaignGroups,
} from './campaigns.targets.service.js';

export interface CourseRef {
  key: string;
  title: string;
  built_in: boolean;
}

/** A campaign with everything the API and the web interface show about it. */
export interface CampaignView extends CampaignRow {
  groups: GroupRef[];
  group_ids: number[];
  courses: CourseRef[];
  course_keys: string[];
  reminders: number[];
  counts: EnrollmentCounts;
}

export const campaignNotFound = () => new AppError('campaign_not_found');

const FIELD_LABELS: Record<CampaignField, string> = {
  name: 'name',
  description: 'description',
  course_keys: 'course_keys',
  group_ids: 'group_ids',
  start_at: 'start_date',
  due_at: 'due_date',
  reminder_days: 'reminder_days',
  enroll_new_members: 'enroll_new_members',
};

/** 409 for an action the campaign's status does not allow. */
export function wrongStatus(action: CampaignAction, status: CampaignStatus) {
  return TRAINING_LIFECYCLE.refused(action, status);
}

/**
 * Adds groups, courses and enrollment figures to campaign rows (of one account); the figures of
 * a role's groups' people only, when it is limited to some (as the progress, docs/roles.md).
 */
async function withDetails(
  db: Db,
  accountId: number,
  rows: CampaignRow[],
  scope: GroupScope = null,
): Promise<CampaignView[]> {
  const ids = rows.map((c) => c.id);
  const [groups, courses, counts] = await Promise.all([
    groupsOfCampaigns(db, accountId, ids),
    coursesOfCampaigns(db, accountId, ids),
    enrollmentCounts(db, accountId, ids, scope),
  ]);
  return rows.map((row) => {
    const targets = groups.get(row.id) ?? [];
    const named = courses.get(row.id) ?? [];
    return {
      ...row,
      groups: targets,
      group_ids: targets.map((g) => g.id).sort((a, b) => a - b),
      course_keys: named.map((c) => c.key),
      // A custom course deleted since is left out of the titles (its key stays above).
      courses: named.flatMap(({ key, course }) =>
        course ? [{ key, title: course.title, built_in: course.built_in }] : [],
      ),
      reminders: JSON.parse(row.reminder_days) as number[],
      counts: counts.get(row.id) ?? { enrolled: 0, completed: 0 },
    };
  });
}

/** One campaign row of the account with its details. */
export async function campaignView(db: Db, accountId: number, row: CampaignRow): Promise<CampaignView> {
  return (await withDetails(db, accountId, [row]))[0] as CampaignView;
}

/** Unknown courses or groups (of this account) as field errors. */
async function checkReferences(
  db: Db,
  accountId: number,
  changes: CampaignChanges,
  errors: FieldErrorCollector,
): Promise<void> {
  if (changes.course_keys?.length) {
    const known = await findCourses(db, accountId, changes.course_keys);
    const unknown = changes.course_keys.filter((k) => !known.has(k));
    if (unknown.length > 0) errors.add('course_keys', `unknown courses: ${unknown.join(', ')}`);
  }
  if (changes.group_ids?.length) {
    const known = await existingGroupIds(db, accountId, changes.group_ids);
    const unknown = changes.group_ids.filter((id) => !known.has(id));
    if (unknown.length > 0) errors.add('group_ids', `unknown groups: ${unknown.join(', ')}`);
  }
}

function rowValues(changes: CampaignChanges) {
  return {
    ...(changes.name !== undefined && { name: changes.name }),
    ...(changes.description !== undefined && { description: changes.description }),
    ...(changes.start_at !== undefined && { start_at: changes.start_at }),
    ...(changes.due_at !== undefined && { due_at: changes.due_at }),
    ...(changes.reminder_days !== undefined && { reminder_days: JSON.stringify(changes.reminder_days) }),
    ...(changes.enroll_new_members !== undefined && {
      enroll_new_members: changes.enroll_new_members ? 1 : 0,
    }),
  };
}

/** The settings of a campaign the audit log shows. */
const CAMPAIGN_AUDIT_FIELDS = [
  'name',
  'description',
  'status',
  'course_keys',
  'group_ids',
  'start_at',
  'due_at',
  'reminders',
  'enroll_new_members',
] as const;

/** Creates a training campaign in `draft`, with the settings given (only `name` is required). */
export async function createCampaign(
  db: Db,
  accountId: number,
  input: Record<string, unknown>,
): Promise<CampaignView> {
  const errors = new FieldErrorCollector();
  const changes = checkCampaignInput(errors, input, { requireName: true });
  errors.throwIfAny();
  await getAccount(db, accountId);
  await checkReferences(db, accountId, changes, errors);
  errors.throwIfAny();
  if (changes.start_at != null && changes.due_at != null && changes.due_at <= changes.start_at) {
    errors.add('due_date', 'must be after the start date');
    errors.throwIfAny();
  }
  const now = Date.now();
  const row = await db.transaction().execute(async (trx) => {
    const campaign = await insertCampaign(trx, accountId, {
      name: changes.name ?? '',
      status: 'draft',
      ...rowValues(changes),
      created_at: now,
      updated_at: now,
    });
    await replaceCampaignGroups(trx, accountId, campaign.id, changes.group_ids ?? []);
    await replaceCampaignCourses(trx, accountId, campaign.id, changes.course_keys ?? []);
    await recordAudit(trx, {
      accountId,
      action: 'campaign.created',
      object: { type: 'campaign', id: campaign.id, label: campaign.name },
      changes: diffFields(null, await campaignView(trx, accountId, campaign), {
        fields: CAMPAIGN_AUDIT_FIELDS,
      }),
    });
    return campaign;
  });
  return campaignView(db, accountId, row);
}

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** The fields that would change, compared with the campaign as it is (sending a field unchanged is no change). */
function changedFields(campaign: CampaignView, changes: CampaignChanges): CampaignField[] {
  const fields: CampaignField[] = [];
  const differs: Record<CampaignField, () => boolean> = {
    name: () => changes.name !== campaign.name,
    description: () => changes.description !== campaign.description,
    course_keys: () => !sameList(changes.course_keys ?? [], campaign.course_keys),
    group_ids: () => !sameList(changes.group_ids ?? [], campaign.group_ids),
    start_at: () => changes.start_at !== campaign.start_at,
    due_at: () => changes.due_at !== campaign.due_at,
    reminder_days: () => !sameList(changes.reminder_days ?? [], campaign.reminders),
    enroll_new_members: () => changes.enroll_new_members !== (campaign.enroll_new_members === 1),
  };
  for (const field of Object.keys(changes) as CampaignField[]) if (differs[field]()) fields.push(field);
  return fields;
}

/**
 * Changes a campaign's settings. What may change depends on the status (campaigns.model.ts); a
 * scheduled campaign must stay ready to run, an active one keeps a due date after its launch.
 */
export async function updateCampaign(
  db: Db,
  accountId: number,
  campaignId: number,
  input: Record<string, unknown>,
): Promise<CampaignView> {
  const errors = new FieldErrorCollector();
  const changes = checkCampaignInput(errors, input, { requireName: false });
  errors.throwIfAny();
  const id = campaignId;
  await db.transaction().execute(async (trx) => {
    const row = await lockCampaign(trx, accountId, id);
    if (!row) throw campaignNotFound();
    const campaign = await campaignView(trx, accountId, row);
    const changed = changedFields(campaign, changes);
    const fixed = changed.filter((field) => !isEditable(campaign.status, field));
    if (fixed.length > 0) {
      throw fieldsLocked(
        fixed.map((f) => FIELD_LABELS[f]),
        campaign.status,
      );
    }
    if (changed.length === 0) return;
    await checkReferences(trx, accountId, changes, errors);
    errors.throwIfAny();
    const next = {
      course_keys: changes.course_keys ?? campaign.course_keys,
      group_ids: changes.group_ids ?? campaign.group_ids,
      start_at: changes.start_at !== undefined ? changes.start_at : campaign.start_at,
      due_at: changes.due_at !== undefined ? changes.due_at : campaign.due_at,
    };
    if (campaign.status === 'scheduled') checkReadyToRun(errors, next, 'schedule', Date.now());
    else if (next.start_at !== null && next.due_at !== null && next.due_at <= next.start_at) {
      errors.add('due_date', 'must be after the start date');
    }
    errors.throwIfAny();
    await updateCampaignRow(trx, accountId, id, { ...rowValues(changes), updated_at: Date.now() });
    if (changes.group_ids && changed.includes('group_ids')) {
      await replaceCampaignGroups(trx, accountId, id, changes.group_ids);
    }
    if (changes.course_keys && changed.includes('course_keys')) {
      await replaceCampaignCourses(trx, accountId, id, changes.course_keys);
    }
    const after = await lockCampaign(trx, accountId, id);
    await recordAudit(trx, {
      accountId,
      action: 'campaign.updated',
      object: { type: 'campaign', id, label: after?.name ?? campaign.name },
      changes: diffFields(campaign, after && (await campaignView(trx, accountId, after)), {
        fields: CAMPAIGN_AUDIT_FIELDS,
      }),
    });
  });
  return getCampaign(db, accountId, id);
}

/** A page of the account's campaigns for the Customer API, by id. */
export async function findCampaigns(
  db: Db,
  accountId: number,
  page: PageRequest,
): Promise<Page<CampaignView>> {
  const result = await fetchPage(
    page,
    () => countCampaigns(db, accountId),
    (limit, offset) => listCampaigns(db, accountId, limit, offset),
  );
  return { ...result, items: await withDetails(db, accountId, result.items) };
}

const STATUSES: CampaignStatus[] = TRAINING_LIFECYCLE.statuses;

/** A page of an account's training campaigns for the web interface, newest first, optionally of one status. */
export async function listCampaignsPage(
  db: Db,
  accountId: number,
  window: ListWindow,
  query: { status?: string } = {},
  groups: GroupScope = null,
): Promise<ListPage<CampaignView>> {
  const status = query.status || undefined;
  if (status !== undefined && !(STATUSES as string[]).includes(status)) {
    throw validationFailed({ status: [`must be one of ${STATUSES.join(', ')}`] });
  }
  const only = status as CampaignStatus | undefined;
  const page = await readList(
    window,
    () => countCampaigns(db, accountId, only, groups),
    (limit, offset) => listCampaigns(db, accountId, limit, offset, { order: 'desc', status: only, groups }),
  );
  return { ...page, items: await withDetails(db, accountId, page.items, groups) };
}

/** One campaign of the account; its enrollment figures of a role's groups only, when it is limited to some. */
export async function getCampaign(
  db: Db,
  accountId: number,
  campaignId: number,
  groups: GroupScope = null,
): Promise<CampaignView> {
  const campaign = await findCampaign(db, accountId, campaignId);
  if (!campaign) throw campaignNotFound();
  return (await withDetails(db, accountId, [campaign], groups))[0] as CampaignView;
}
