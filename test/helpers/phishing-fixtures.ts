import { randomBytes } from 'node:crypto';
import type { Db } from '../../src/core/db/database.js';
import type { PhishingCampaignStatus, PhishingRecipientStatus } from '../../src/core/db/schema.js';
import { employeeSearchText } from '../../src/core/search-text.js';
import { bumpGroupsRevision } from '../../src/modules/directory/groups/groups.repository.js';
import { createGroup } from '../../src/modules/directory/groups/groups.service.js';
import {
  addActivity,
  addDelay,
  addToFigures,
  type FigureDeltas,
  insertFigureRows,
} from '../../src/modules/phishing/simulation/simulation.figures.repository.js';

/**
 * A phishing campaign written straight into the tables of migration 0009, as a launch and the
 * tracking routes would leave it: groups, a template pool with its launch snapshot, recipients in
 * every state with their events, and figures rows that agree with them (through the figures
 * repository). Account-scoped: everything belongs to `accountId`. For the results' tests, so they
 * do not wait for the campaign and tracking code.
 */

export interface FixtureRecipientSpec {
  status: PhishingRecipientStatus;
  reported?: boolean;
  training?: boolean;
  /** Delete the employee afterwards (their recipient row stays, anonymised). */
  deleted?: boolean;
  /** Index into the campaign's groups (default: alternating). */
  groups?: number[];
  /** Index into the template pool (default: alternating). */
  template?: number;
  first_name?: string;
  last_name?: string;
  email?: string;
}

export interface FixtureOptions {
  name?: string;
  status?: PhishingCampaignStatus;
  recipients?: FixtureRecipientSpec[];
  /** Template keys of the pool; default two built-in ones. */
  templates?: { key: string; name: string }[];
  groupNames?: string[];
  /** When the first message went out (default: two days ago, on the hour). */
  launchedAt?: number;
  /** The campaign's failing rule (default `click`, the column's default). */
  remedialOn?: 'click' | 'submit';
  /** Minutes between two recipients' planned moments (default 37; 1 keeps a few people in one hour). */
  minutesApart?: number;
}

export interface FixtureRecipient {
  id: number;
  employeeId: number;
  email: string | null;
  token: string;
  templateKey: string;
  groupIds: number[];
  status: PhishingRecipientStatus;
  planned_at: number;
  sent_at: number | null;
  opened_at: number | null;
  clicked_at: number | null;
  submitted_at: number | null;
  reported_at: number | null;
  training_assigned_at: number | null;
}

export interface PhishingFixture {
  campaignId: number;
  groupIds: number[];
  groupNames: string[];
  templates: { key: string; name: string }[];
  recipients: FixtureRecipient[];
  launchedAt: number;
}

/** Every state once, two reporters (one after a click), one failed delivery, one deleted employee. */
export const DEFAULT_RECIPIENTS: FixtureRecipientSpec[] = [
  { status: 'scheduled' },
  { status: 'sent' },
  { status: 'opened' },
  { status: 'clicked', training: true },
  { status: 'submitted', training: true },
  { status: 'failed' },
  { status: 'opened', reported: true },
  { status: 'clicked', reported: true, training: true },
  { status: 'sent', reported: true },
  { status: 'clicked', deleted: true, training: true },
];

const RANK: Record<PhishingRecipientStatus, number> = {
  scheduled: 0,
  failed: 0,
  sent: 1,
  opened: 2,
  clicked: 3,
  submitted: 4,
};

const MINUTE = 60_000;
let serial = 0;
const unique = () => `${randomBytes(4).toString('hex')}${++serial}`;

export async function insertPhishingCampaign(
  db: Db,
  accountId: number,
  options: FixtureOptions = {},
): Promise<PhishingFixture> {
  const now = Date.now();
  const launchedAt = options.launchedAt ?? Math.floor((now - 2 * 86_400_000) / 3_600_000) * 3_600_000;
  const specs = options.recipients ?? DEFAULT_RECIPIENTS;
  const templates = options.templates ?? [
    { key: 'builtin:invoice-overdue', name: 'Overdue invoice' },
    { key: 'builtin:parcel-held', name: 'Parcel held at depot' },
  ];
  const groupNames = options.groupNames ?? [`Finance ${unique()}`, `Sales ${unique()}`];

  const groupIds: number[] = [];
  for (const name of groupNames) {
    groupIds.push((await createGroup(db, accountId, { name, description: '' })).id);
  }
  const campaign = await db
    .insertInto('phishing_campaigns')
    .values({
      account_id: accountId,
      name: options.name ?? `Simulation ${unique()}`,
      status: options.status ?? 'running',
      window_start_at: launchedAt,
      window_end_at: launchedAt + 5 * 86_400_000,
      weekdays: 31,
      hour_start: 9,
      hour_end: 17,
      time_zone: 'Europe/Berlin',
      launched_at: launchedAt,
      ...(options.remedialOn && { remedial_on: options.remedialOn }),
      created_at: launchedAt - 86_400_000,
      updated_at: launchedAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const campaignId = campaign.id;
  if (groupIds.length > 0)
    await db
      .insertInto('phishing_campaign_groups')
      .values(groupIds.map((group_id) => ({ campaign_id: campaignId, group_id })))
      .execute();
  await db
    .insertInto('phishing_campaign_templates')
    .values(
      templates.map((t, position) => ({
        campaign_id: campaignId,
        template_key: t.key,
        position,
        snapshot: JSON.stringify({ name: t.name, subject: `About: ${t.name}` }),
      })),
    )
    .execute();

  const recipients: FixtureRecipient[] = [];
  const counts = new Map<string, number>();
  const bump = (k: string) => counts.set(k, (counts.get(k) ?? 0) + 1);

  for (const [i, spec] of specs.entries()) {
    const u = unique();
    const first = spec.first_name ?? `Person${i}`;
    const last = spec.last_name ?? `Fixture${u}`;
    const email = spec.email ?? `p${i}.${u}@example.com`;
    const employee = await db
      .insertInto('employees')
      .values({
        account_id: accountId,
        first_name: first,
        last_name: last,
        email,
        email_normalized: email.toLowerCase(),
        search_text: employeeSearchText({ first_name: first, last_name: last, email }),
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const myGroups = (spec.groups ?? (groupIds.length ? [i % groupIds.length] : [])).map(
      (g) => groupIds[g] as number,
    );
    for (const g of myGroups) {
      await db.insertInto('group_members').values({ group_id: g, employee_id: employee.id }).execute();
      await db
        .updateTable('groups')
        .set((eb) => ({ employee_count: eb('employee_count', '+', 1), version: eb('version', '+', 1) }))
        .where('id', '=', g)
        .execute();
    }
    const template = templates[spec.template ?? i % templates.length] as { key: string };
    const planned = launchedAt + i * (options.minutesApart ?? 37) * MINUTE;
    const rank = RANK[spec.status];
    const sent = rank >= 1 || spec.reported ? planned : null;
    const opened = rank >= 2 ? planned + 5 * MINUTE : null;
    const clicked = rank >= 3 ? planned + (10 + i) * MINUTE : null;
    const submitted = rank >= 4 ? planned + (12 + i) * MINUTE : null;
    const reported = spec.reported ? planned + (20 + 3 * i) * MINUTE : null;
    const training = spec.training && clicked !== null ? clicked + MINUTE : null;
    const token = randomBytes(24).toString('base64url');
    const row = await db
      .insertInto('phishing_recipients')
      .values({
        account_id: accountId,
        campaign_id: campaignId,
        employee_id: employee.id,
        token,
        template_key: template.key,
        group_ids: JSON.stringify(myGroups),
        planned_at: planned,
        status: spec.status,
        sent_at: sent,
        opened_at: opened,
        clicked_at: clicked,
        submitted_at: submitted,
        reported_at: reported,
        failed_at: spec.status === 'failed' ? planned : null,
        training_assigned_at: training,
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    // Events: one per step, plus a scanner's open seconds after delivery.
    const event = (
      kind:
        | 'sent'
        | 'delivery_failed'
        | 'opened'
        | 'clicked'
        | 'submitted'
        | 'reported'
        | 'training_assigned',
      at: number,
      classification: 'human' | 'automated',
      reason: string,
      extra: { user_agent?: string; field_names?: string } = {},
    ) => ({
      account_id: accountId,
      campaign_id: campaignId,
      recipient_id: row.id,
      kind,
      occurred_at: at,
      client_address: kind === 'sent' || kind === 'delivery_failed' ? null : `198.51.100.${(i % 200) + 1}`,
      user_agent:
        extra.user_agent ?? (kind === 'sent' ? null : 'Mozilla/5.0 (Windows NT 10.0) Firefox/132.0'),
      classification,
      reason,
      field_names: extra.field_names ?? null,
    });
    const events = [];
    const deltas: FigureDeltas = { recipients: 0 };
    if (spec.status === 'failed') {
      events.push(event('delivery_failed', planned, 'human', 'delivery_failed'));
      deltas.failed = 1;
    }
    if (sent !== null) {
      events.push(event('sent', sent, 'human', 'smtp_accepted'));
      events.push(
        event('opened', sent + 4000, 'automated', 'within_delivery_window', {
          user_agent: 'Mozilla/5.0 (compatible; SafeLinks scanner)',
        }),
      );
      deltas.delivered = 1;
      deltas.automated_events = 1;
    }
    if (opened !== null) {
      events.push(event('opened', opened, 'human', 'browser'));
      deltas.opened = 1;
      deltas.raw_opens = 1;
    }
    if (clicked !== null) {
      events.push(event('clicked', clicked, 'human', 'browser'));
      deltas.clicked = 1;
      deltas.phished = 1;
      deltas.raw_clicks = 1;
    }
    if (submitted !== null) {
      events.push(
        event('submitted', submitted, 'human', 'form_post', {
          field_names: JSON.stringify(['username', 'password']),
        }),
      );
      deltas.submitted = 1;
      deltas.raw_submits = 1;
    }
    if (reported !== null) {
      events.push(event('reported', reported, 'human', 'report_api'));
      deltas.reported = 1;
    }
    if (training !== null) {
      events.push(event('training_assigned', training, 'human', 'remedial_enrollment'));
      deltas.training_assigned = 1;
    }
    if (events.length > 0) await db.insertInto('phishing_events').values(events).execute();

    const membership = { group_ids: myGroups, template_key: template.key };
    bump('all:');
    for (const g of myGroups) bump(`group:${g}`);
    bump(`template:${template.key}`);
    await addToFigures(db, campaignId, membership, deltas);
    if (sent !== null && clicked !== null)
      await addDelay(db, campaignId, membership, 'click', (clicked - sent) / 1000, 1);
    if (sent !== null && reported !== null)
      await addDelay(db, campaignId, membership, 'report', (reported - sent) / 1000, 1);
    if (sent !== null) await addActivity(db, campaignId, sent, 'delivered', 1);
    if (opened !== null) await addActivity(db, campaignId, opened, 'opened', 1);
    if (clicked !== null) await addActivity(db, campaignId, clicked, 'clicked', 1);
    if (submitted !== null) await addActivity(db, campaignId, submitted, 'submitted', 1);
    if (reported !== null) await addActivity(db, campaignId, reported, 'reported', 1);

    if (spec.deleted) {
      await db.deleteFrom('group_members').where('employee_id', '=', employee.id).execute();
      for (const g of myGroups)
        await db
          .updateTable('groups')
          .set((eb) => ({ employee_count: eb('employee_count', '-', 1), version: eb('version', '+', 1) }))
          .where('id', '=', g)
          .execute();
      await db.deleteFrom('employees').where('id', '=', employee.id).execute();
      await db
        .updateTable('phishing_recipients')
        .set({ employee_deleted_at: now })
        .where('id', '=', row.id)
        .execute();
    }
    recipients.push({
      id: row.id,
      employeeId: employee.id,
      email: spec.deleted ? null : email,
      token,
      templateKey: template.key,
      groupIds: myGroups,
      status: spec.status,
      planned_at: planned,
      sent_at: sent,
      opened_at: opened,
      clicked_at: clicked,
      submitted_at: submitted,
      reported_at: reported,
      training_assigned_at: training,
    });
  }
  await bumpGroupsRevision(db, accountId);
  await insertFigureRows(
    db,
    campaignId,
    [...counts].map(([k, recipients]) => {
      const at = k.indexOf(':');
      return { dimension: k.slice(0, at) as 'all' | 'group' | 'template', key: k.slice(at + 1), recipients };
    }),
  );
  return { campaignId, groupIds, groupNames, templates, recipients, launchedAt };
}

/** The figures a fixture's recipients add up to (what the `all` row must hold). */
export function expectedFigures(recipients: readonly FixtureRecipient[]) {
  const count = (f: (r: FixtureRecipient) => boolean) => recipients.filter(f).length;
  const delivered = count((r) => r.sent_at !== null);
  const phished = count((r) => r.clicked_at !== null);
  const reported = count((r) => r.reported_at !== null);
  return {
    recipients: recipients.length,
    delivered,
    opened: count((r) => r.opened_at !== null),
    clicked: phished,
    submitted: count((r) => r.submitted_at !== null),
    reported,
    phished,
  };
}
