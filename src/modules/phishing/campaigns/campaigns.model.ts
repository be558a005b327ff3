import type { PhishingCampaignStatus, PhishingLanding, PhishingRemedialOn } from '../../../core/db/schema.js';
import type { FieldErrorCollector } from '../../../core/errors.js';
import { checkDescription, checkName } from '../../../core/fields.js';
import { parseId } from '../../../core/ids.js';
import { type CampaignAction, campaignLifecycle, checkHasTargets } from '../../campaigns/index.js';
import { checkSenderAddress, checkSenderDomain, checkSenderName } from '../settings/settings.sender.model.js';
import {
  isTimeZone,
  MAX_WINDOW_DAYS,
  openIntervals,
  openTime,
  WEEKDAY_NAMES,
  type WeekdayName,
  weekdaysToMask,
} from './campaigns.window.model.js';

/**
 * What a phishing campaign's settings may be, and what each status allows. Pure: the service
 * checks the database (groups, templates, courses) and applies these in a transaction.
 */

export const MAX_TEMPLATES = 20;
export const MAX_COURSES = 20;
export const MAX_GRACE_HOURS = 24 * 60;
export const MAX_AUTOMATED_WINDOW_SECONDS = 3600;
/** Days from a person's failure to the due date of their remedial training: 1 to 365, 14 unless set. */
export const MIN_REMEDIAL_DUE_DAYS = 1;
export const MAX_REMEDIAL_DUE_DAYS = 365;
export const DEFAULT_REMEDIAL_DUE_DAYS = 14;
const DAY_MS = 86_400_000;

export const LANDINGS: PhishingLanding[] = ['teach_on_click', 'teach_on_submit'];
export const REMEDIAL_ON: PhishingRemedialOn[] = ['click', 'submit'];

/** The shared lifecycle, in phishing's names: a launched phishing campaign is `running`. */
export const PHISHING_LIFECYCLE = campaignLifecycle<PhishingCampaignStatus>(
  {
    draft: 'draft',
    scheduled: 'scheduled',
    running: 'running',
    completed: 'completed',
    archived: 'archived',
  },
  'phishing campaign',
);
export const PHISHING_STATUSES: PhishingCampaignStatus[] = PHISHING_LIFECYCLE.statuses;

/** The fields an administrator sets, by their column names; absent = unchanged. */
export interface PhishingCampaignChanges {
  name?: string;
  description?: string;
  group_ids?: number[];
  template_keys?: string[];
  course_keys?: string[];
  window_start_at?: number | null;
  window_end_at?: number | null;
  weekdays?: number;
  hour_start?: number;
  hour_end?: number;
  time_zone?: string;
  landing?: PhishingLanding;
  remedial_on?: PhishingRemedialOn;
  remedial_due_days?: number;
  grace_hours?: number;
  automated_window_seconds?: number;
  sender_domain?: string | null;
  sender_name?: string | null;
  sender_address?: string | null;
}

export type PhishingCampaignField = keyof PhishingCampaignChanges;

export type PhishingCampaignAction = CampaignAction;

export function allowedPhishingActions(status: PhishingCampaignStatus): PhishingCampaignAction[] {
  return PHISHING_LIFECYCLE.allowedActions(status);
}

const ALL_FIELDS: PhishingCampaignField[] = [
  'name',
  'description',
  'group_ids',
  'template_keys',
  'course_keys',
  'window_start_at',
  'window_end_at',
  'weekdays',
  'hour_start',
  'hour_end',
  'time_zone',
  'landing',
  'remedial_on',
  'remedial_due_days',
  'grace_hours',
  'automated_window_seconds',
  'sender_domain',
  'sender_name',
  'sender_address',
];

/**
 * The fields that may still change in each status. Once launched, who gets what and when is
 * planned: only the names and the grace period (how long results still count) may change.
 */
const EDITABLE: Record<PhishingCampaignStatus, PhishingCampaignField[]> = {
  draft: ALL_FIELDS,
  scheduled: ALL_FIELDS,
  running: ['name', 'description', 'grace_hours'],
  completed: ['name', 'description'],
  archived: [],
};

export function isPhishingFieldEditable(
  status: PhishingCampaignStatus,
  field: PhishingCampaignField,
): boolean {
  return EDITABLE[status].includes(field);
}

/** The API name of each field (weekdays are names, the window's ends ISO texts). */
export function editablePhishingFields(): Record<PhishingCampaignStatus, string[]> {
  return Object.fromEntries(Object.entries(EDITABLE).map(([s, f]) => [s, [...f]])) as Record<
    PhishingCampaignStatus,
    string[]
  >;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

function checkInstant(errors: FieldErrorCollector, field: string, value: unknown): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  const text = typeof value === 'string' ? value.trim() : '';
  const ms = DATE_TIME.test(text) ? Date.parse(text) : Number.NaN;
  if (!Number.isFinite(ms) || ms < Date.UTC(2000, 0, 1) || ms > Date.UTC(9999, 0, 1)) {
    errors.add(field, 'must be an ISO 8601 date-time with a time zone, e.g. 2026-12-04T09:00:00Z');
    return undefined;
  }
  return ms;
}

function checkIds(errors: FieldErrorCollector, field: string, value: unknown): number[] | undefined {
  if (value === undefined) return undefined;
  const ids = Array.isArray(value) ? value.map((v) => (typeof v === 'number' ? parseId(v) : null)) : [null];
  if (ids.includes(null)) {
    errors.add(field, 'must be an array of positive integers');
    return undefined;
  }
  return [...new Set(ids as number[])].sort((a, b) => a - b);
}

function checkKeys(
  errors: FieldErrorCollector,
  field: string,
  value: unknown,
  max: number,
  pattern?: RegExp,
): string[] | undefined {
  if (value === undefined) return undefined;
  if (
    !Array.isArray(value) ||
    value.some((k) => typeof k !== 'string' || k.trim() === '' || k.length > 200) ||
    (pattern && value.some((k: string) => !pattern.test(k.trim())))
  ) {
    errors.add(
      field,
      pattern
        ? 'must be an array of template keys (`builtin:<slug>` or `custom:<id>`)'
        : 'must be an array of keys',
    );
    return undefined;
  }
  const keys = [...new Set(value.map((k: string) => k.trim()))];
  if (keys.length > max) errors.add(field, `must have at most ${max} entries`);
  return keys;
}

function checkInteger(
  errors: FieldErrorCollector,
  field: string,
  value: unknown,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || (value as number) < min || (value as number) > max) {
    errors.add(field, `must be a whole number from ${min} to ${max}`);
    return undefined;
  }
  return value as number;
}

function checkChoice<T extends string>(
  errors: FieldErrorCollector,
  field: string,
  value: unknown,
  choices: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !(choices as readonly string[]).includes(value)) {
    errors.add(field, `must be one of ${choices.join(', ')}`);
    return undefined;
  }
  return value as T;
}

const TEMPLATE_KEY = /^(builtin:[a-z0-9][a-z0-9-]*|custom:[1-9][0-9]{0,15})$/;

/** Reads the fields of a create or change request; a field left out is absent from the result. */
export function checkPhishingCampaignInput(
  errors: FieldErrorCollector,
  input: Record<string, unknown>,
  opts: { requireName: boolean; allowLocalSender: boolean },
): PhishingCampaignChanges {
  const c: PhishingCampaignChanges = {};
  if (opts.requireName || input.name !== undefined) c.name = checkName(errors, 'name', input.name);
  if (input.description !== undefined && input.description !== null) {
    c.description = checkDescription(errors, 'description', input.description);
  }
  const groups = checkIds(errors, 'group_ids', input.group_ids);
  if (groups) c.group_ids = groups;
  const templates = checkKeys(errors, 'template_keys', input.template_keys, MAX_TEMPLATES, TEMPLATE_KEY);
  if (templates) c.template_keys = templates;
  const courses = checkKeys(errors, 'remedial_course_keys', input.remedial_course_keys, MAX_COURSES);
  if (courses) c.course_keys = courses;
  const start = checkInstant(errors, 'window_start_at', input.window_start_at);
  if (start !== undefined) c.window_start_at = start;
  const end = checkInstant(errors, 'window_end_at', input.window_end_at);
  if (end !== undefined) c.window_end_at = end;
  if (input.weekdays !== undefined) {
    const days = input.weekdays;
    if (
      !Array.isArray(days) ||
      days.length === 0 ||
      days.some((d) => typeof d !== 'string' || !(WEEKDAY_NAMES as readonly string[]).includes(d))
    ) {
      errors.add('weekdays', `must be a non-empty array of ${WEEKDAY_NAMES.join(', ')}`);
    } else c.weekdays = weekdaysToMask(days as WeekdayName[]);
  }
  const hourStart = checkInteger(errors, 'hour_start', input.hour_start, 0, 23);
  if (hourStart !== undefined) c.hour_start = hourStart;
  const hourEnd = checkInteger(errors, 'hour_end', input.hour_end, 1, 24);
  if (hourEnd !== undefined) c.hour_end = hourEnd;
  if (input.time_zone !== undefined) {
    if (typeof input.time_zone === 'string' && isTimeZone(input.time_zone)) c.time_zone = input.time_zone;
    else errors.add('time_zone', 'must be an IANA time zone, e.g. Europe/Berlin');
  }
  const landing = checkChoice(errors, 'landing', input.landing, LANDINGS);
  if (landing) c.landing = landing;
  const remedialOn = checkChoice(errors, 'remedial_on', input.remedial_on, REMEDIAL_ON);
  if (remedialOn) c.remedial_on = remedialOn;
  const dueDays = checkInteger(
    errors,
    'remedial_due_days',
    input.remedial_due_days,
    MIN_REMEDIAL_DUE_DAYS,
    MAX_REMEDIAL_DUE_DAYS,
  );
  if (dueDays !== undefined) c.remedial_due_days = dueDays;
  const grace = checkInteger(errors, 'grace_hours', input.grace_hours, 0, MAX_GRACE_HOURS);
  if (grace !== undefined) c.grace_hours = grace;
  const automated = checkInteger(
    errors,
    'automated_window_seconds',
    input.automated_window_seconds,
    0,
    MAX_AUTOMATED_WINDOW_SECONDS,
  );
  if (automated !== undefined) c.automated_window_seconds = automated;
  const senderName = checkSenderName(errors, 'sender_name', input.sender_name);
  if (senderName !== undefined) c.sender_name = senderName;
  const senderAddress = checkSenderAddress(errors, 'sender_address', input.sender_address);
  if (senderAddress !== undefined) c.sender_address = senderAddress;
  const senderDomain = checkSenderDomain(errors, 'sender_domain', input.sender_domain, opts.allowLocalSender);
  if (senderDomain !== undefined) c.sender_domain = senderDomain;
  return c;
}

/** The settings a campaign has, as the checks below read them. */
export interface PhishingCampaignSettings {
  group_ids: number[];
  template_keys: string[];
  window_start_at: number | null;
  window_end_at: number | null;
  weekdays: number;
  hour_start: number;
  hour_end: number;
  time_zone: string;
}

/** A window's shape (whatever the time): end after start, hours in order, not too long. */
export function checkWindowShape(errors: FieldErrorCollector, c: PhishingCampaignSettings): void {
  if (c.hour_end <= c.hour_start) errors.add('hour_end', 'must be after hour_start');
  if (c.window_start_at !== null && c.window_end_at !== null) {
    if (c.window_end_at <= c.window_start_at) errors.add('window_end_at', 'must be after window_start_at');
    else if (c.window_end_at - c.window_start_at > MAX_WINDOW_DAYS * DAY_MS) {
      errors.add('window_end_at', `must be at most ${MAX_WINDOW_DAYS} days after window_start_at`);
    }
  }
}

/** The settings a schedule or a launch needs, as field errors: groups, templates, a window with open time left. */
export function checkReadyToSend(
  errors: FieldErrorCollector,
  c: PhishingCampaignSettings,
  now: number,
): void {
  checkHasTargets(errors, c.group_ids);
  if (c.template_keys.length === 0) errors.add('template_keys', 'choose at least one template');
  if (c.window_start_at === null) errors.add('window_start_at', 'is required');
  if (c.window_end_at === null) errors.add('window_end_at', 'is required');
  checkWindowShape(errors, c);
  if (Object.keys(errors.fields).length === 0 && c.window_start_at !== null && c.window_end_at !== null) {
    if (c.window_end_at <= now) errors.add('window_end_at', 'must be in the future');
    else {
      const open = openIntervals(
        {
          startAt: c.window_start_at,
          endAt: c.window_end_at,
          weekdays: c.weekdays,
          hourStart: c.hour_start,
          hourEnd: c.hour_end,
          timeZone: c.time_zone,
        },
        now,
      );
      if (openTime(open) <= 0) {
        errors.add('window_end_at', 'the window has no open hour left on the chosen weekdays');
      }
    }
  }
}
