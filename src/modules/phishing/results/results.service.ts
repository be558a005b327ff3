import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { Db } from '../../../core/db/database.js';
import type { GroupScope } from '../../../core/db/group-scope.js';
import { foldedContainsPattern } from '../../../core/db/like.js';
import type { PhishingRecipientStatus, PhishingRemedialOn } from '../../../core/db/schema.js';
import { AppError, validationFailed } from '../../../core/errors.js';
import {
  fetchPage,
  type ListPage,
  type ListWindow,
  type Page,
  type PageRequest,
  readList,
} from '../../../core/pagination.js';
import { isoOrNull } from '../../../core/time.js';
import {
  activityOfCampaign,
  delaysOfCampaign,
  figuresOfCampaigns,
  HOUR_MS,
  medianSeconds,
} from '../simulation/simulation.figures.repository.js';
import { builtInPhishingTemplates } from '../templates/templates.library.service.js';
import {
  campaignRow,
  campaignRows,
  countCampaigns,
  countRecipients,
  countRecipientsOfEmployee,
  employeeOfAccount,
  groupsOfCampaigns,
  type PhishingCampaignRow,
  type RecipientFilter,
  type RecipientRow,
  recipientRows,
  recipientsAfter,
  recipientsOfEmployee,
  templatesOfCampaigns,
} from './results.repository.js';

/**
 * A phishing campaign's results, read: figures from the rows kept as events arrive (never a scan
 * of events), recipients a page at a time, the CSV export streamed in keyset batches.
 */

export const RECIPIENT_STATUSES: readonly PhishingRecipientStatus[] = [
  'scheduled',
  'sent',
  'opened',
  'clicked',
  'submitted',
  'failed',
];
/** The statuses a list can be narrowed to: a recipient's, or `reported` (whatever their status). */
export const RECIPIENT_STATUS_FILTERS = [...RECIPIENT_STATUSES, 'reported'] as const;
export type RecipientStatusFilter = (typeof RECIPIENT_STATUS_FILTERS)[number];

/**
 * The Customer API's 404 for a phishing campaign (`campaign_not_found`, the code it answers for
 * any campaign); the admin API's is campaigns.service.ts `phishingCampaignNotFound`.
 */
export const apiPhishingCampaignNotFound = () => new AppError('campaign_not_found');
const employeeNotFound = () => new AppError('employee_not_found');

export function checkRecipientStatus(status: string | undefined): RecipientStatusFilter | undefined {
  if (status === undefined || status === '') return undefined;
  if (!(RECIPIENT_STATUS_FILTERS as readonly string[]).includes(status)) {
    throw validationFailed({ status: [`must be one of ${RECIPIENT_STATUS_FILTERS.join(', ')}`] });
  }
  return status as RecipientStatusFilter;
}

/** The counters of a figures row. */
export interface Counts {
  recipients: number;
  delivered: number;
  failed: number;
  opened: number;
  clicked: number;
  submitted: number;
  reported: number;
  phished: number;
  reported_after_click: number;
  missed: number;
  training_assigned: number;
  raw_opens: number;
  raw_clicks: number;
  raw_submits: number;
  automated_events: number;
}

/** A figures row with its rates and medians. */
export interface Figures extends Counts {
  /**
   * Phish-prone, as the spec defines it for every campaign whatever its rule: people who clicked
   * or submitted ÷ people delivered, in percent (two decimals); 0 with none delivered (the web
   * interface shows "—" then: nothing can have been fallen for yet).
   */
  phish_prone_percent: number;
  /**
   * People who failed by the campaign's own rule (`remedial_on`): the phished when it fails on
   * a click, those who submitted when it fails on submitting.
   */
  failed_by_rule: number;
  /** `failed_by_rule` ÷ delivered, in percent (two decimals); 0 with none delivered. */
  failed_by_rule_percent: number;
  /** People who reported ÷ people delivered, 0 to 1 (four decimals). */
  report_rate: number;
  /** People delivered who neither clicked nor reported ÷ people delivered, 0 to 1 (four decimals). */
  miss_rate: number;
  median_seconds_to_click: number | null;
  median_seconds_to_report: number | null;
}

const ZERO: Counts = {
  recipients: 0,
  delivered: 0,
  failed: 0,
  opened: 0,
  clicked: 0,
  submitted: 0,
  reported: 0,
  phished: 0,
  reported_after_click: 0,
  missed: 0,
  training_assigned: 0,
  raw_opens: 0,
  raw_clicks: 0,
  raw_submits: 0,
  automated_events: 0,
};

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

type Delay = { dimension: string; dimension_key: string; step: string; bucket: number; people: number };

/** A share of the delivered in percent, two decimals; 0 with none delivered. */
const percentOfDelivered = (people: number, delivered: number) =>
  delivered > 0 ? round((100 * people) / delivered, 2) : 0;

/** Who failed by a campaign's rule: everyone phished (clicked or submitted), or those who submitted. */
export function failedByRule(
  counts: Pick<Counts, 'phished' | 'submitted'>,
  rule: PhishingRemedialOn,
): number {
  return rule === 'submit' ? counts.submitted : counts.phished;
}

function figuresOf(
  row: Partial<Counts> | undefined,
  delays: readonly Delay[],
  rule: PhishingRemedialOn,
): Figures {
  const counts = { ...ZERO };
  for (const k of Object.keys(ZERO) as (keyof Counts)[]) counts[k] = Number(row?.[k] ?? 0);
  const d = counts.delivered;
  const failed = failedByRule(counts, rule);
  return {
    ...counts,
    phish_prone_percent: percentOfDelivered(counts.phished, d),
    failed_by_rule: failed,
    failed_by_rule_percent: percentOfDelivered(failed, d),
    report_rate: d > 0 ? round(counts.reported / d, 4) : 0,
    miss_rate: d > 0 ? round(counts.missed / d, 4) : 0,
    median_seconds_to_click: medianSeconds(delays.filter((x) => x.step === 'click')),
    median_seconds_to_report: medianSeconds(delays.filter((x) => x.step === 'report')),
  };
}

export interface TemplateRef {
  key: string;
  name: string;
}

/**
 * A campaign as the Customer API (and its webhook events) shows it: groups, templates and
 * results figures. The admin API's is campaigns.service.ts `PhishingCampaignView`.
 */
export interface ApiPhishingCampaignView extends PhishingCampaignRow {
  groups: { id: number; name: string | null }[];
  templates: TemplateRef[];
  figures: Figures;
}

/** A template's name: from the launch snapshot, else the library (built-in), else its key. */
function templateName(key: string, snapshot: string | null): string {
  if (snapshot) {
    try {
      const name = (JSON.parse(snapshot) as { name?: unknown }).name;
      if (typeof name === 'string' && name) return name;
    } catch {
      // A snapshot that is not JSON: fall back to the library.
    }
  }
  if (key.startsWith('builtin:')) {
    const name = builtInPhishingTemplates().get(key.slice('builtin:'.length))?.name;
    if (name) return name;
  }
  return key;
}

/** The campaigns with their groups, templates and figures (`all`, with medians): four reads in all. */
async function withFigures(
  db: Db,
  accountId: number,
  rows: PhishingCampaignRow[],
): Promise<ApiPhishingCampaignView[]> {
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return [];
  const [groups, templates, figures, delays] = await Promise.all([
    groupsOfCampaigns(db, accountId, ids),
    templatesOfCampaigns(db, accountId, ids),
    figuresOfCampaigns(db, accountId, ids),
    allDelaysOfCampaigns(db, accountId, ids),
  ]);
  return rows.map((r) => ({
    ...r,
    groups: groups
      .filter((g) => g.campaign_id === r.id)
      .map((g) => ({ id: g.group_id, name: g.name ?? null })),
    templates: templates
      .filter((t) => t.campaign_id === r.id)
      .map((t) => ({ key: t.template_key, name: templateName(t.template_key, t.snapshot) })),
    figures: figuresOf(
      figures.find((f) => f.campaign_id === r.id),
      delays.filter((d) => d.campaign_id === r.id),
      r.remedial_on,
    ),
  }));
}

/** The `all` delay histograms of several campaigns (a list's medians), one query per campaign at most 100. */
async function allDelaysOfCampaigns(db: Db, accountId: number, ids: number[]) {
  const all = await Promise.all(
    ids.map(async (id) =>
      (await delaysOfCampaign(db, accountId, id))
        .filter((d) => d.dimension === 'all')
        .map((d) => ({ ...d, campaign_id: id })),
    ),
  );
  return all.flat();
}

export async function findPhishingCampaigns(
  db: Db,
  accountId: number,
  page: PageRequest,
): Promise<Page<ApiPhishingCampaignView>> {
  const result = await fetchPage(
    page,
    () => countCampaigns(db, accountId),
    (limit, offset) => campaignRows(db, accountId, limit, offset),
  );
  return { ...result, items: await withFigures(db, accountId, result.items) };
}

export async function getPhishingCampaignRow(db: Db, accountId: number, campaignId: number) {
  const row = await campaignRow(db, accountId, campaignId);
  if (!row) throw apiPhishingCampaignNotFound();
  return row;
}

export async function getApiPhishingCampaign(db: Db, accountId: number, campaignId: number) {
  const [view] = await withFigures(db, accountId, [await getPhishingCampaignRow(db, accountId, campaignId)]);
  return view as ApiPhishingCampaignView;
}

/** Customer API: a page of a campaign's recipients by employee id; `status` checked before the campaign (400 before 404). */
/**
 * How many recipients match: with no filter, or a group or a template alone, the matching
 * figures row's `recipients` (one primary-key read, kept exact by the launch) instead of counting
 * up to 100,000 index entries; else a count.
 */
async function recipientCount(db: Db, accountId: number, filter: RecipientFilter): Promise<number> {
  const { campaignId, groupId, templateKey, ...rest } = filter;
  const narrowed = Object.values(rest).some((v) => v !== undefined);
  if (!narrowed && (groupId === undefined || templateKey === undefined)) {
    const [dimension, key] =
      groupId !== undefined
        ? (['group', String(groupId)] as const)
        : templateKey !== undefined
          ? (['template', templateKey] as const)
          : (['all', ''] as const);
    const rows = await figuresOfCampaigns(db, accountId, [campaignId], [dimension]);
    const row = rows.find((r) => r.dimension_key === key);
    if (row) return Number(row.recipients);
  }
  return countRecipients(db, accountId, filter);
}

export async function findRecipientResults(
  db: Db,
  accountId: number,
  campaignId: number,
  page: PageRequest,
  query: { status?: string; employeeId?: number },
): Promise<Page<RecipientRow>> {
  const status = checkRecipientStatus(query.status);
  const campaign = await getPhishingCampaignRow(db, accountId, campaignId);
  const filter: RecipientFilter = { campaignId: campaign.id, status, employeeId: query.employeeId };
  return fetchPage(
    page,
    () => recipientCount(db, accountId, filter),
    (limit, offset) => recipientRows(db, accountId, filter, limit, offset),
  );
}

export interface Breakdown extends Figures {
  /** The group's id or the template's key. */
  key: string;
  name: string;
}

export interface ActivityBucket {
  /** The start of the hour (or day), epoch ms. */
  at: number;
  delivered: number;
  opened: number;
  clicked: number;
  submitted: number;
  reported: number;
}

export interface ResultsSummary {
  campaign: ApiPhishingCampaignView;
  all: Figures;
  groups: Breakdown[];
  templates: Breakdown[];
  activity: { bucket: 'hour' | 'day'; rows: ActivityBucket[] };
}

/** Activity longer than this many hours is folded into days (unless asked otherwise). */
export const FOLD_TO_DAYS_AFTER_HOURS = 72;
const DAY_MS = 24 * HOUR_MS;

function foldActivity(rows: ActivityBucket[], bucket: 'hour' | 'day'): ActivityBucket[] {
  if (bucket === 'hour') return rows;
  const days = new Map<number, ActivityBucket>();
  for (const r of rows) {
    const at = Math.floor(r.at / DAY_MS) * DAY_MS;
    const day = days.get(at) ?? { at, delivered: 0, opened: 0, clicked: 0, submitted: 0, reported: 0 };
    day.delivered += r.delivered;
    day.opened += r.opened;
    day.clicked += r.clicked;
    day.submitted += r.submitted;
    day.reported += r.reported;
    days.set(at, day);
  }
  return [...days.values()];
}

/**
 * The results page's summary: the campaign's figures, by group and by template, and activity
 * over time. All from the figures tables: four indexed reads, whatever the campaign's size.
 */
export async function resultsSummary(
  db: Db,
  accountId: number,
  campaignId: number,
  options: { bucket?: 'hour' | 'day' | 'auto' } = {},
): Promise<ResultsSummary> {
  const campaign = await getApiPhishingCampaign(db, accountId, campaignId);
  const [rows, delays, activity] = await Promise.all([
    figuresOfCampaigns(db, accountId, [campaignId], ['group', 'template']),
    delaysOfCampaign(db, accountId, campaignId),
    activityOfCampaign(db, accountId, campaignId),
  ]);
  const groupNames = new Map(campaign.groups.map((g) => [String(g.id), g.name]));
  const templateNames = new Map(campaign.templates.map((t) => [t.key, t.name]));
  const breakdown = (dimension: 'group' | 'template', nameOf: (key: string) => string): Breakdown[] =>
    rows
      .filter((r) => r.dimension === dimension)
      .map((r) => ({
        key: r.dimension_key,
        name: nameOf(r.dimension_key),
        ...figuresOf(
          r,
          delays.filter((d) => d.dimension === dimension && d.dimension_key === r.dimension_key),
          campaign.remedial_on,
        ),
      }))
      .sort((a, b) => a.name.localeCompare(b.name) || a.key.localeCompare(b.key));
  const hourly = activity.map((a) => ({
    at: Number(a.hour),
    delivered: Number(a.delivered),
    opened: Number(a.opened),
    clicked: Number(a.clicked),
    submitted: Number(a.submitted),
    reported: Number(a.reported),
  }));
  const span = hourly.length ? ((hourly.at(-1)?.at ?? 0) - (hourly[0]?.at ?? 0)) / HOUR_MS : 0;
  const asked = options.bucket ?? 'auto';
  const bucket = asked === 'auto' ? (span > FOLD_TO_DAYS_AFTER_HOURS ? 'day' : 'hour') : asked;
  return {
    campaign,
    all: campaign.figures,
    groups: breakdown('group', (key) => groupNames.get(key) ?? `Deleted group #${key}`),
    templates: breakdown('template', (key) => templateNames.get(key) ?? templateName(key, null)),
    activity: { bucket, rows: foldActivity(hourly, bucket) },
  };
}

export interface RecipientsQuery {
  status?: string;
  q?: string;
  groupId?: number;
  template?: string;
}

/** The admin API's page of recipients: by employee id, narrowed by status, a search, a group or a template. */
export async function listRecipientsPage(
  db: Db,
  accountId: number,
  campaignId: number,
  query: RecipientsQuery,
  window: ListWindow,
  groups: GroupScope = null,
): Promise<ListPage<RecipientRow>> {
  const status = checkRecipientStatus(query.status);
  const campaign = await getPhishingCampaignRow(db, accountId, campaignId);
  const pattern = foldedContainsPattern(query.q);
  if (pattern === null) return { count: 0, items: [] };
  const filter: RecipientFilter = {
    campaignId: campaign.id,
    status,
    pattern,
    groupId: query.groupId,
    templateKey: query.template || undefined,
    groups,
  };
  return readList(
    window,
    () => recipientCount(db, accountId, filter),
    (limit, offset) => recipientRows(db, accountId, filter, limit, offset),
  );
}

const EXPORT_BATCH_SIZE = 2000;

export const RECIPIENTS_CSV_COLUMNS = [
  'employee_id',
  'first_name',
  'last_name',
  'email',
  'template',
  'group_ids',
  'status',
  'planned_at',
  'sent_at',
  'opened_at',
  'clicked_at',
  'submitted_at',
  'reported_at',
  // The simulation could not be delivered (not "failed the test": that is clicked or submitted).
  'delivery_failed_at',
  'training_assigned_at',
];

/**
 * Every recipient of a campaign as CSV, streamed in keyset batches of 2,000 (never the whole
 * campaign in memory), after UTF-8's byte-order mark (so that Excel reads Öztürk as written). Cells a spreadsheet would run as a formula get a leading `'`. A deleted
 * employee's name reads "Deleted employee", their address is empty. A role limited to groups
 * gets the people of its groups only.
 */
export async function exportRecipients(
  db: Db,
  accountId: number,
  campaignId: number,
  groups: GroupScope = null,
): Promise<Readable> {
  const campaign = await getPhishingCampaignRow(db, accountId, campaignId);
  const records = Readable.from(
    (async function* () {
      let after = 0;
      for (;;) {
        const batch = await recipientsAfter(db, accountId, campaign.id, after, EXPORT_BATCH_SIZE, groups);
        for (const r of batch) {
          const person = recipientPerson(r);
          yield [
            r.employee_id,
            person.first_name,
            person.last_name,
            person.email ?? '',
            r.template_key,
            groupIdsOf(r).join(' '),
            r.status,
            isoOrNull(r.planned_at),
            isoOrNull(r.sent_at),
            isoOrNull(r.opened_at),
            isoOrNull(r.clicked_at),
            isoOrNull(r.submitted_at),
            isoOrNull(r.reported_at),
            isoOrNull(r.failed_at),
            isoOrNull(r.training_assigned_at),
          ];
        }
        const last = batch.at(-1);
        if (!last || batch.length < EXPORT_BATCH_SIZE) return;
        after = last.employee_id;
      }
    })(),
  );
  return pipeline(
    records,
    stringify({ header: true, columns: RECIPIENTS_CSV_COLUMNS, escape_formulas: true, bom: true }),
    () => {},
  );
}

export const DELETED_EMPLOYEE_NAME = 'Deleted employee';

/** Who a recipient is: the employee, or once deleted "Deleted employee" "#<id>" with no address. */
export function recipientPerson(
  r: Pick<RecipientRow, 'employee_id' | 'employee_deleted_at' | 'first_name' | 'last_name' | 'email'>,
) {
  if (r.employee_deleted_at !== null || r.first_name === null) {
    return { first_name: DELETED_EMPLOYEE_NAME, last_name: `#${r.employee_id}`, email: null };
  }
  return { first_name: r.first_name, last_name: r.last_name ?? '', email: r.email ?? null };
}

export function groupIdsOf(r: Pick<RecipientRow, 'group_ids'>): number[] {
  try {
    const ids = JSON.parse(r.group_ids) as unknown;
    return Array.isArray(ids) ? ids.filter((x): x is number => Number.isInteger(x)) : [];
  } catch {
    return [];
  }
}

export type EmployeeHistoryRow = Awaited<ReturnType<typeof recipientsOfEmployee>>[number];

/** An employee's simulations across the account's campaigns, newest first; another account's employee is a 404. */
export async function employeePhishingHistory(
  db: Db,
  accountId: number,
  employeeId: number,
  window: ListWindow,
  groups: GroupScope = null,
): Promise<ListPage<EmployeeHistoryRow>> {
  const employee = await employeeOfAccount(db, accountId, employeeId);
  if (!employee) throw employeeNotFound();
  // A role limited to groups sees the campaigns that target none but them.
  return readList(
    window,
    () => countRecipientsOfEmployee(db, accountId, employee.id, groups),
    (limit, offset) => recipientsOfEmployee(db, accountId, employee.id, limit, offset, groups),
  );
}
