import type { CampaignStatus } from '../../../core/db/schema.js';
import type { FieldErrorCollector } from '../../../core/errors.js';
import { checkDescription, checkName } from '../../../core/fields.js';
import { parseId } from '../../../core/ids.js';
import { type CampaignAction, campaignLifecycle, checkHasTargets } from '../../campaigns/index.js';

/**
 * What a campaign's settings may be, and what each status allows. Pure: the service checks the
 * database (known courses and groups) and applies these in a transaction.
 */

export const MAX_COURSES = 20;
export const MAX_REMINDERS = 10;
/** The furthest before the due date a reminder can go, in days. */
export const MAX_REMINDER_DAY = 365;
const DAY_MS = 86_400_000;

/** The fields an administrator sets; each is optional on a change (absent = unchanged). */
export interface CampaignChanges {
  name?: string;
  description?: string;
  course_keys?: string[];
  group_ids?: number[];
  start_at?: number | null;
  due_at?: number | null;
  reminder_days?: number[];
  enroll_new_members?: boolean;
}

export type CampaignField = keyof CampaignChanges;

export type { CampaignAction };

/** The shared lifecycle, in training's names: a launched training campaign is `active`. */
export const TRAINING_LIFECYCLE = campaignLifecycle<CampaignStatus>(
  { draft: 'draft', scheduled: 'scheduled', running: 'active', completed: 'completed', archived: 'archived' },
  'campaign',
);

/** What a campaign in this status can do now. */
export function allowedActions(status: CampaignStatus): CampaignAction[] {
  return TRAINING_LIFECYCLE.allowedActions(status);
}

const ALL_FIELDS: CampaignField[] = [
  'name',
  'description',
  'course_keys',
  'group_ids',
  'start_at',
  'due_at',
  'reminder_days',
  'enroll_new_members',
];

/** The fields that may still change in each status. */
const EDITABLE: Record<CampaignStatus, CampaignField[]> = {
  draft: ALL_FIELDS,
  scheduled: ALL_FIELDS,
  active: ['name', 'description', 'due_at', 'reminder_days', 'enroll_new_members'],
  completed: ['name', 'description'],
  archived: [],
};

export function isEditable(status: CampaignStatus, field: CampaignField): boolean {
  return EDITABLE[status].includes(field);
}

/** The request fields of a create or change, by the names the API gives them. */
export type CampaignInputField = Exclude<CampaignField, 'start_at' | 'due_at'> | 'start_date' | 'due_date';

const API_NAME: Partial<Record<CampaignField, CampaignInputField>> = {
  start_at: 'start_date',
  due_at: 'due_date',
};

/** Every field of a create or change, by its API name. */
export const CAMPAIGN_INPUT_FIELDS: CampaignInputField[] = ALL_FIELDS.map(
  (f) => API_NAME[f] ?? (f as CampaignInputField),
);

/** The fields each status lets change, by their API names (for forms that disable the others). */
export function editableInputFields(): Record<CampaignStatus, CampaignInputField[]> {
  const byStatus = {} as Record<CampaignStatus, CampaignInputField[]>;
  for (const [status, fields] of Object.entries(EDITABLE) as [CampaignStatus, CampaignField[]][]) {
    byStatus[status] = fields.map((f) => API_NAME[f] ?? (f as CampaignInputField));
  }
  return byStatus;
}

// 2026-12-04, 2026-12-04T09:00, 2026-12-04T09:00:00.000Z, 2026-12-04T09:00:00+01:00
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * A date as the API takes it: an ISO 8601 date-time with a zone, or a plain date, which means
 * the start of that day (UTC) for a start and its last millisecond for a due date.
 */
function checkDate(
  errors: FieldErrorCollector,
  field: string,
  value: unknown,
  endOfDay: boolean,
): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  const text = typeof value === 'string' ? value.trim() : '';
  const ms = DATE_ONLY.test(text)
    ? Date.parse(`${text}T00:00:00.000Z`) + (endOfDay ? DAY_MS - 1 : 0)
    : DATE_TIME.test(text)
      ? Date.parse(text)
      : Number.NaN;
  if (!Number.isFinite(ms) || ms < Date.UTC(2000, 0, 1) || ms > Date.UTC(9999, 0, 1)) {
    errors.add(field, 'must be an ISO 8601 date or date-time with a time zone, e.g. 2026-12-04T17:00:00Z');
    return undefined;
  }
  return ms;
}

function checkCourseKeys(errors: FieldErrorCollector, value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((k) => typeof k !== 'string' || k.trim() === '')) {
    errors.add('course_keys', 'must be an array of course keys');
    return undefined;
  }
  const keys = [...new Set(value.map((k: string) => k.trim()))];
  if (keys.length > MAX_COURSES) errors.add('course_keys', `must have at most ${MAX_COURSES} courses`);
  return keys;
}

function checkGroupIds(errors: FieldErrorCollector, value: unknown): number[] | undefined {
  if (value === undefined) return undefined;
  const ids = Array.isArray(value) ? value.map((v) => (typeof v === 'number' ? parseId(v) : null)) : [null];
  if (ids.includes(null)) {
    errors.add('group_ids', 'must be an array of positive integers');
    return undefined;
  }
  return [...new Set(ids as number[])].sort((a, b) => a - b);
}

function checkReminderDays(errors: FieldErrorCollector, value: unknown): number[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((d) => !Number.isInteger(d) || d < 1 || d > MAX_REMINDER_DAY)) {
    errors.add('reminder_days', `must be an array of whole days from 1 to ${MAX_REMINDER_DAY}`);
    return undefined;
  }
  const days = [...new Set(value as number[])].sort((a, b) => b - a);
  if (days.length > MAX_REMINDERS) errors.add('reminder_days', `must have at most ${MAX_REMINDERS} entries`);
  return days;
}

/** Reads the fields of a create or change request; a field left out is absent from the result. */
export function checkCampaignInput(
  errors: FieldErrorCollector,
  input: Record<string, unknown>,
  opts: { requireName: boolean },
): CampaignChanges {
  const changes: CampaignChanges = {};
  if (opts.requireName || input.name !== undefined) changes.name = checkName(errors, 'name', input.name);
  if (input.description !== undefined && input.description !== null) {
    changes.description = checkDescription(errors, 'description', input.description);
  }
  const courseKeys = checkCourseKeys(errors, input.course_keys);
  if (courseKeys) changes.course_keys = courseKeys;
  const groupIds = checkGroupIds(errors, input.group_ids);
  if (groupIds) changes.group_ids = groupIds;
  const start = checkDate(errors, 'start_date', input.start_date, false);
  if (start !== undefined) changes.start_at = start;
  const due = checkDate(errors, 'due_date', input.due_date, true);
  if (due !== undefined) changes.due_at = due;
  const reminders = checkReminderDays(errors, input.reminder_days);
  if (reminders) changes.reminder_days = reminders;
  if (input.enroll_new_members !== undefined) {
    if (typeof input.enroll_new_members === 'boolean') changes.enroll_new_members = input.enroll_new_members;
    else errors.add('enroll_new_members', 'must be true or false');
  }
  return changes;
}

/** The settings a launch or a schedule needs, as field errors. */
export function checkReadyToRun(
  errors: FieldErrorCollector,
  campaign: { course_keys: string[]; group_ids: number[]; start_at: number | null; due_at: number | null },
  when: 'schedule' | 'launch',
  now: number,
): void {
  if (campaign.course_keys.length === 0) errors.add('course_keys', 'choose at least one course');
  checkHasTargets(errors, campaign.group_ids);
  if (when === 'schedule') {
    if (campaign.start_at === null) errors.add('start_date', 'is required to schedule');
    else if (campaign.start_at <= now) errors.add('start_date', 'must be in the future');
  }
  const start = when === 'launch' ? now : (campaign.start_at ?? now);
  if (campaign.due_at === null) errors.add('due_date', `is required to ${when}`);
  else if (campaign.due_at <= start) {
    errors.add('due_date', when === 'launch' ? 'must be in the future' : 'must be after the start date');
  }
}
