import { diffFields, recordAudit } from '../../../core/audit/audit.js';
import type { Db } from '../../../core/db/database.js';
import type { GroupScope } from '../../../core/db/group-scope.js';
import type { PhishingCampaignStatus } from '../../../core/db/schema.js';
import { AppError, FieldErrorCollector, validationFailed } from '../../../core/errors.js';
import { type ListPage, type ListWindow, readList } from '../../../core/pagination.js';
import { getAccount } from '../../access/index.js';
import { type CampaignRows, deleteCampaignOfKind, fieldsLocked } from '../../campaigns/index.js';
import { findCourses } from '../../training/index.js';
import type { SenderPolicy } from '../settings/settings.sender.model.js';
import { accountSender } from '../settings/settings.sender.service.js';
import { figuresOfCampaigns } from '../simulation/simulation.figures.repository.js';
import { templatesByKeys } from '../templates/templates.lookup.service.js';
import { countPeopleOfCampaign, nextSendOfCampaigns } from './campaigns.launch.repository.js';
import {
  checkPhishingCampaignInput,
  checkReadyToSend,
  checkWindowShape,
  isPhishingFieldEditable,
  PHISHING_LIFECYCLE,
  PHISHING_STATUSES,
  type PhishingCampaignAction,
  type PhishingCampaignChanges,
  type PhishingCampaignField,
} from './campaigns.model.js';
import {
  countPhishingCampaigns,
  deletePhishingCampaignRow,
  findPhishingCampaign,
  insertPhishingCampaign,
  listPhishingCampaigns,
  lockPhishingCampaign,
  type PhishingCampaignRow,
  updatePhishingCampaignRow,
} from './campaigns.repository.js';
import {
  childrenOfPhishingCampaigns,
  existingGroupIds,
  replacePhishingGroups,
  replacePhishingKeys,
} from './campaigns.targets.service.js';
import { sendPlan, windowOf } from './campaigns.window.model.js';

export type PhishingFiguresRow = Awaited<ReturnType<typeof figuresOfCampaigns>>[number];

/** A campaign with everything the admin API shows about it (the Customer API's is results.service.ts `ApiPhishingCampaignView`). */
export interface PhishingCampaignView extends PhishingCampaignRow {
  groups: { id: number; name: string }[];
  group_ids: number[];
  template_keys: string[];
  templates: { key: string; name: string | null }[];
  course_keys: string[];
  courses: { key: string; title: string | null }[];
  /** The `all` figures row (null before launch). */
  figures: PhishingFiguresRow | null;
  /** When simulations go out: what the launch planned, or before it, what a launch now would plan. */
  send_plan: CampaignSendPlan;
}

/** A campaign's sending, as the campaign page, the list and the launch confirmation show it. */
export interface CampaignSendPlan {
  /** False: the launch planned these; true: the window's first and last possible moments from now. */
  estimate: boolean;
  first_at: number | null;
  last_at: number | null;
  /** Running: the earliest simulation not yet sent; before launch: the first possible moment. */
  next_at: number | null;
  /** Before launch: open sending time within the next 24 hours, ms (null once launched). */
  open_next_day_ms: number | null;
}

/** The send plan of a campaign (sendPlan of the window model, or what its launch stored). */
export function campaignSendPlan(
  row: PhishingCampaignRow,
  nextSend: number | undefined,
  now: number,
): CampaignSendPlan {
  if (row.launched_at !== null) {
    return {
      estimate: false,
      first_at: row.planned_first_at,
      last_at: row.planned_last_at,
      next_at: row.status === 'running' ? (nextSend ?? null) : null,
      open_next_day_ms: null,
    };
  }
  const window = windowOf(row);
  if (!window)
    return { estimate: true, first_at: null, last_at: null, next_at: null, open_next_day_ms: null };
  const plan = sendPlan(window, now);
  return {
    estimate: true,
    first_at: plan.firstAt,
    last_at: plan.lastAt,
    next_at: plan.firstAt,
    open_next_day_ms: plan.openNextDayMs,
  };
}

export const phishingCampaignNotFound = () => new AppError('phishing_campaign_not_found');

/** 409 for an action the campaign's status does not allow. */
export function phishingWrongStatus(action: PhishingCampaignAction, status: PhishingCampaignStatus) {
  return PHISHING_LIFECYCLE.refused(action, status);
}

/** Why a campaign completed: stopped by an administrator, or its window and grace period ended. */
export type CompletedReason = 'stopped' | 'window_ended';

/** Phishing campaign rows as the shared lifecycle moves them; a completion records its reason. */
export function phishingCampaignRows(
  reason: CompletedReason = 'stopped',
): CampaignRows<PhishingCampaignStatus, PhishingCampaignRow> {
  return {
    lifecycle: PHISHING_LIFECYCLE,
    lock: lockPhishingCampaign,
    update: (trx, accountId, campaignId, values, from) =>
      updatePhishingCampaignRow(
        trx,
        accountId,
        campaignId,
        { ...values, ...(values.status === 'completed' && { completed_reason: reason }) },
        from,
      ),
    remove: deletePhishingCampaignRow,
    notFound: phishingCampaignNotFound,
    auditType: 'phishing_campaign',
  };
}

const FIELD_LABELS: Partial<Record<PhishingCampaignField, string>> = { course_keys: 'remedial_course_keys' };
const label = (f: PhishingCampaignField) => FIELD_LABELS[f] ?? f;

async function withDetails(
  db: Db,
  accountId: number,
  rows: PhishingCampaignRow[],
): Promise<PhishingCampaignView[]> {
  const ids = rows.map((r) => r.id);
  const running = rows.filter((r) => r.status === 'running').map((r) => r.id);
  const [children, figures, nextSends] = await Promise.all([
    childrenOfPhishingCampaigns(db, accountId, ids),
    figuresOfCampaigns(db, accountId, ids),
    nextSendOfCampaigns(db, accountId, running),
  ]);
  const now = Date.now();
  const allKeys = [...new Set([...children.values()].flatMap((c) => c.template_keys))];
  const allCourses = [...new Set([...children.values()].flatMap((c) => c.course_keys))];
  const [templates, courses] = await Promise.all([
    templatesByKeys(db, accountId, allKeys),
    allCourses.length ? findCourses(db, accountId, allCourses) : Promise.resolve(new Map()),
  ]);
  const figuresOf = new Map(figures.map((f) => [f.campaign_id, f]));
  return rows.map((row) => {
    const c = children.get(row.id) ?? { groups: [], template_keys: [], course_keys: [] };
    return {
      ...row,
      groups: c.groups,
      group_ids: c.groups.map((g) => g.id).sort((a, b) => a - b),
      template_keys: c.template_keys,
      templates: c.template_keys.map((key) => ({ key, name: templates.get(key)?.name ?? null })),
      course_keys: c.course_keys,
      courses: c.course_keys.map((key) => ({ key, title: courses.get(key)?.title ?? null })),
      figures: figuresOf.get(row.id) ?? null,
      send_plan: campaignSendPlan(row, nextSends.get(row.id), now),
    };
  });
}

export async function phishingCampaignView(
  db: Db,
  accountId: number,
  row: PhishingCampaignRow,
): Promise<PhishingCampaignView> {
  return (await withDetails(db, accountId, [row]))[0] as PhishingCampaignView;
}

/** Unknown groups, templates or courses (of this account) as field errors. */
async function checkReferences(
  db: Db,
  accountId: number,
  c: PhishingCampaignChanges,
  errors: FieldErrorCollector,
): Promise<void> {
  if (c.group_ids?.length) {
    const known = await existingGroupIds(db, accountId, c.group_ids);
    const unknown = c.group_ids.filter((id) => !known.has(id));
    if (unknown.length > 0) errors.add('group_ids', `unknown groups: ${unknown.join(', ')}`);
  }
  if (c.template_keys?.length) {
    const known = await templatesByKeys(db, accountId, c.template_keys);
    const unknown = c.template_keys.filter((k) => !known.has(k));
    if (unknown.length > 0) errors.add('template_keys', `unknown templates: ${unknown.join(', ')}`);
  }
  if (c.course_keys?.length) {
    const known = await findCourses(db, accountId, c.course_keys);
    const unknown = c.course_keys.filter((k) => !known.has(k));
    if (unknown.length > 0) errors.add('remedial_course_keys', `unknown courses: ${unknown.join(', ')}`);
  }
}

function rowValues(c: PhishingCampaignChanges) {
  const { group_ids: _g, template_keys: _t, course_keys: _c, ...columns } = c;
  return columns;
}

/** The settings after a change, for the checks. */
function settingsAfter(view: PhishingCampaignView | undefined, c: PhishingCampaignChanges) {
  const pick = <K extends keyof PhishingCampaignChanges & keyof PhishingCampaignRow>(
    key: K,
    fallback: PhishingCampaignRow[K],
  ) =>
    (c[key] !== undefined ? c[key] : view ? view[key] : fallback) as NonNullable<PhishingCampaignChanges[K]>;
  return {
    group_ids: c.group_ids ?? view?.group_ids ?? [],
    template_keys: c.template_keys ?? view?.template_keys ?? [],
    window_start_at: (c.window_start_at !== undefined
      ? c.window_start_at
      : (view?.window_start_at ?? null)) as number | null,
    window_end_at: (c.window_end_at !== undefined ? c.window_end_at : (view?.window_end_at ?? null)) as
      | number
      | null,
    weekdays: pick('weekdays', 31),
    hour_start: pick('hour_start', 9),
    hour_end: pick('hour_end', 17),
    time_zone: pick('time_zone', 'UTC'),
  };
}

/** Creates a phishing campaign in `draft` with the settings given (only `name` is required). */
export async function createPhishingCampaign(
  db: Db,
  accountId: number,
  input: Record<string, unknown>,
  sender: Pick<SenderPolicy, 'allowLocal'> = { allowLocal: false },
): Promise<PhishingCampaignView> {
  const errors = new FieldErrorCollector();
  const changes = checkPhishingCampaignInput(errors, input, {
    requireName: true,
    allowLocalSender: sender.allowLocal,
  });
  errors.throwIfAny();
  checkWindowShape(errors, settingsAfter(undefined, changes));
  errors.throwIfAny();
  await getAccount(db, accountId);
  await checkReferences(db, accountId, changes, errors);
  errors.throwIfAny();
  const now = Date.now();
  const row = await db.transaction().execute(async (trx) => {
    const campaign = await insertPhishingCampaign(trx, accountId, {
      ...rowValues(changes),
      name: changes.name ?? '',
      status: 'draft',
      created_at: now,
      updated_at: now,
    });
    await replacePhishingGroups(trx, accountId, campaign.id, changes.group_ids ?? []);
    await replacePhishingKeys(trx, accountId, campaign.id, 'templates', changes.template_keys ?? []);
    await replacePhishingKeys(trx, accountId, campaign.id, 'courses', changes.course_keys ?? []);
    const view: Record<string, unknown> = { ...(await phishingCampaignView(trx, accountId, campaign)) };
    await recordAudit(trx, {
      accountId,
      action: 'phishing_campaign.created',
      object: { type: 'phishing_campaign', id: campaign.id, label: campaign.name },
      changes: diffFields(null, view, { fields: ['name', 'status', ...Object.keys(changes)] }),
    });
    return campaign;
  });
  return phishingCampaignView(db, accountId, row);
}

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

function changedFields(view: PhishingCampaignView, c: PhishingCampaignChanges): PhishingCampaignField[] {
  return (Object.keys(c) as PhishingCampaignField[]).filter((field) => {
    if (field === 'group_ids') return !sameList(c.group_ids ?? [], view.group_ids);
    if (field === 'template_keys') return !sameList(c.template_keys ?? [], view.template_keys);
    if (field === 'course_keys') return !sameList(c.course_keys ?? [], view.course_keys);
    return c[field] !== view[field];
  });
}

/** Changes a campaign's settings; what may change depends on its status (campaigns.model.ts). */
export async function updatePhishingCampaign(
  db: Db,
  accountId: number,
  campaignId: number,
  input: Record<string, unknown>,
  sender: Pick<SenderPolicy, 'allowLocal'> = { allowLocal: false },
): Promise<PhishingCampaignView> {
  const errors = new FieldErrorCollector();
  const changes = checkPhishingCampaignInput(errors, input, {
    requireName: false,
    allowLocalSender: sender.allowLocal,
  });
  errors.throwIfAny();
  await db.transaction().execute(async (trx) => {
    const row = await lockPhishingCampaign(trx, accountId, campaignId);
    if (!row) throw phishingCampaignNotFound();
    const view = await phishingCampaignView(trx, accountId, row);
    const changed = changedFields(view, changes);
    const fixed = changed.filter((f) => !isPhishingFieldEditable(view.status, f));
    if (fixed.length > 0) {
      throw fieldsLocked(fixed.map(label), view.status);
    }
    if (changed.length === 0) return;
    await checkReferences(trx, accountId, changes, errors);
    errors.throwIfAny();
    const next = settingsAfter(view, changes);
    if (view.status === 'scheduled') checkReadyToSend(errors, next, Date.now());
    else checkWindowShape(errors, next);
    errors.throwIfAny();
    await updatePhishingCampaignRow(trx, accountId, campaignId, {
      ...rowValues(changes),
      updated_at: Date.now(),
    });
    if (changes.group_ids && changed.includes('group_ids')) {
      await replacePhishingGroups(trx, accountId, campaignId, changes.group_ids);
    }
    if (changes.template_keys && changed.includes('template_keys')) {
      await replacePhishingKeys(trx, accountId, campaignId, 'templates', changes.template_keys);
    }
    if (changes.course_keys && changed.includes('course_keys')) {
      await replacePhishingKeys(trx, accountId, campaignId, 'courses', changes.course_keys);
    }
    const after = await lockPhishingCampaign(trx, accountId, campaignId);
    const afterView: Record<string, unknown> = {
      ...(after ? await phishingCampaignView(trx, accountId, after) : {}),
    };
    await recordAudit(trx, {
      accountId,
      action: 'phishing_campaign.updated',
      object: { type: 'phishing_campaign', id: campaignId, label: after?.name ?? view.name },
      changes: diffFields({ ...view }, afterView, { fields: changed }),
    });
  });
  return getPhishingCampaign(db, accountId, campaignId);
}

export async function getPhishingCampaign(
  db: Db,
  accountId: number,
  campaignId: number,
): Promise<PhishingCampaignView> {
  const row = await findPhishingCampaign(db, accountId, campaignId);
  if (!row) throw phishingCampaignNotFound();
  return phishingCampaignView(db, accountId, row);
}

/** A page of the account's phishing campaigns, newest first, optionally of one status. */
export async function listPhishingCampaignsPage(
  db: Db,
  accountId: number,
  window: ListWindow,
  query: { status?: string } = {},
  groups: GroupScope = null,
): Promise<ListPage<PhishingCampaignView>> {
  const status = query.status || undefined;
  if (status !== undefined && !(PHISHING_STATUSES as string[]).includes(status)) {
    throw validationFailed({ status: [`must be one of ${PHISHING_STATUSES.join(', ')}`] });
  }
  const only = status as PhishingCampaignStatus | undefined;
  const page = await readList(
    window,
    () => countPhishingCampaigns(db, accountId, only, groups),
    (limit, offset) => listPhishingCampaigns(db, accountId, limit, offset, only, groups),
  );
  return { ...page, items: await withDetails(db, accountId, page.items) };
}

/** Deletes a draft (nobody was ever sent anything). */
export function deletePhishingCampaign(db: Db, accountId: number, campaignId: number): Promise<void> {
  return deleteCampaignOfKind(db, phishingCampaignRows(), accountId, campaignId);
}

/** Who a launch now would send to and when (the launch confirmation). */
export interface LaunchPreview {
  recipients: number;
  first_at: number | null;
  last_at: number | null;
  time_zone: string;
  sender_domain: string;
}

/**
 * What launching the campaign now would do: how many people, and the first and last moment it
 * could plan (the same sendPlan the launch draws from), with the domain it would send from.
 */
export async function previewPhishingLaunch(
  db: Db,
  accountId: number,
  campaignId: number,
  sender: SenderPolicy,
  now = Date.now(),
): Promise<LaunchPreview> {
  const row = await findPhishingCampaign(db, accountId, campaignId);
  if (!row) throw phishingCampaignNotFound();
  const window = windowOf(row);
  const plan = window ? sendPlan(window, now) : null;
  const [recipients, account] = await Promise.all([
    countPeopleOfCampaign(db, accountId, campaignId),
    accountSender(db, accountId),
  ]);
  return {
    recipients,
    first_at: plan?.firstAt ?? null,
    last_at: plan?.lastAt ?? null,
    time_zone: row.time_zone,
    sender_domain: row.sender_domain ?? account.sender_domain ?? sender.defaultDomain,
  };
}
