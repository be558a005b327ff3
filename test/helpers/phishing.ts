import type { FastifyInstance } from 'fastify';
import type {
  PhishingCampaignStatus,
  PhishingLanding,
  PhishingRemedialOn,
} from '../../src/core/db/schema.js';
import { publicBaseUrl } from '../../src/core/http/links.js';
import { manualClock } from '../../src/core/outbox/clock.js';
import { createEndpoint } from '../../src/modules/integrations/webhooks/webhooks.service.js';
import { createMailTransport } from '../../src/modules/mail/mail.transport.service.js';
import { insertFigureRows } from '../../src/modules/phishing/simulation/simulation.figures.repository.js';
import { newSimulationToken } from '../../src/modules/phishing/simulation/simulation.links.model.js';
import { builtInPhishingTemplates } from '../../src/modules/phishing/templates/templates.library.service.js';
import { drainMailQueue, type WorkerLog } from '../../src/workers/mail-worker.js';
import { runScheduledWork } from '../../src/workers/scheduler.js';
import { makeEmployee, makeGroup } from './factories.js';

/**
 * A phishing campaign as a launch and the mail worker (area B) leave it: running, its template
 * snapshotted, one recipient per employee with a token, sent (`sent_at`) unless told otherwise,
 * and the figures rows with `recipients` and `delivered`. Written straight to the tables so the
 * tracking tests do not depend on the launch.
 */

export const TEMPLATE_SLUG = 'password-expiry-today';

export interface SeedOptions {
  people?: number;
  status?: PhishingCampaignStatus;
  landing?: PhishingLanding;
  remedialOn?: PhishingRemedialOn;
  /** Makes an active training campaign without groups as the remedial one. */
  remedial?: boolean;
  /** When the messages were delivered (epoch ms); null: not yet. Default: ten minutes ago. */
  sentAt?: number | null;
  automatedWindowSeconds?: number;
}

export async function seedPhishingCampaign(
  app: FastifyInstance,
  accountId: number,
  options: SeedOptions = {},
) {
  const db = app.db;
  const now = Date.now();
  const sentAt = options.sentAt === undefined ? now - 600_000 : options.sentAt;
  let remedialId: number | null = null;
  if (options.remedial) {
    const training = await db
      .insertInto('training_campaigns')
      .values({
        account_id: accountId,
        name: 'Phishing: remedial training',
        status: 'active',
        start_at: now,
        launched_at: now,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    remedialId = Number(training.id);
    await db
      .insertInto('campaign_courses')
      .values({ campaign_id: remedialId, course_key: 'phishing', position: 0 })
      .execute();
  }
  const campaign = await db
    .insertInto('phishing_campaigns')
    .values({
      account_id: accountId,
      name: 'Quarterly simulation',
      status: options.status ?? 'running',
      landing: options.landing ?? 'teach_on_submit',
      remedial_on: options.remedialOn ?? 'click',
      remedial_campaign_id: remedialId,
      automated_window_seconds: options.automatedWindowSeconds ?? 60,
      launched_at: now,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const campaignId = Number(campaign.id);
  const template = builtInPhishingTemplates().get(TEMPLATE_SLUG);
  if (!template) throw new Error(`no built-in template ${TEMPLATE_SLUG}`);
  const templateKey = `builtin:${TEMPLATE_SLUG}`;
  await db
    .insertInto('phishing_campaign_templates')
    .values({
      campaign_id: campaignId,
      template_key: templateKey,
      position: 0,
      snapshot: JSON.stringify(template),
    })
    .execute();
  const group = await makeGroup(app, accountId);
  const people = [];
  for (let i = 0; i < (options.people ?? 3); i++) {
    const employee = await makeEmployee(app, accountId);
    const token = newSimulationToken();
    const row = await db
      .insertInto('phishing_recipients')
      .values({
        account_id: accountId,
        campaign_id: campaignId,
        employee_id: employee.id,
        token,
        template_key: templateKey,
        group_ids: JSON.stringify([group.id]),
        planned_at: now - 700_000,
        status: sentAt === null ? 'scheduled' : 'sent',
        sent_at: sentAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    people.push({ id: Number(row.id), token, employee });
  }
  const n = people.length;
  await insertFigureRows(db, campaignId, [
    { dimension: 'all', key: '', recipients: n },
    { dimension: 'group', key: String(group.id), recipients: n },
    { dimension: 'template', key: templateKey, recipients: n },
  ]);
  if (sentAt !== null) {
    await db
      .updateTable('phishing_figures')
      .set({ delivered: n, missed: n })
      .where('campaign_id', '=', campaignId)
      .execute();
    await db
      .insertInto('phishing_activity')
      .values({ campaign_id: campaignId, hour: Math.floor(sentAt / 3_600_000) * 3_600_000, delivered: n })
      .execute();
  }
  return { campaignId, groupId: group.id, templateKey, people, remedialId, sentAt };
}

/** The `all` figures row of a campaign. */
export function figuresOf(app: FastifyInstance, campaignId: number) {
  return app.db
    .selectFrom('phishing_figures')
    .selectAll()
    .where('campaign_id', '=', campaignId)
    .where('dimension', '=', 'all')
    .executeTakeFirstOrThrow();
}

/** The figures a campaign's recipients and events say, counted from scratch (what the kept figures must equal). */
export async function recountFigures(app: FastifyInstance, campaignId: number) {
  const recipients = await app.db
    .selectFrom('phishing_recipients')
    .selectAll()
    .where('campaign_id', '=', campaignId)
    .execute();
  const events = await app.db
    .selectFrom('phishing_events')
    .select(['kind', 'classification'])
    .where('campaign_id', '=', campaignId)
    .execute();
  const count = (f: (r: (typeof recipients)[number]) => unknown) => recipients.filter(f).length;
  const kinds = (k: string) => events.filter((e) => e.kind === k).length;
  const activity = await app.db
    .selectFrom('phishing_activity')
    .select(['delivered', 'opened', 'clicked', 'submitted', 'reported'])
    .where('campaign_id', '=', campaignId)
    .execute();
  const sum = (k: 'delivered' | 'opened' | 'clicked' | 'submitted' | 'reported') =>
    activity.reduce((s, a) => s + Number(a[k]), 0);
  const delays = await app.db
    .selectFrom('phishing_figure_delays')
    .select(['step', 'people'])
    .where('campaign_id', '=', campaignId)
    .where('dimension', '=', 'all')
    .execute();
  const delayPeople = (step: string) =>
    delays.filter((d) => d.step === step).reduce((s, d) => s + Number(d.people), 0);
  return {
    kept: {
      delivered: count((r) => r.sent_at !== null),
      opened: count((r) => r.opened_at !== null),
      clicked: count((r) => r.clicked_at !== null),
      submitted: count((r) => r.submitted_at !== null),
      reported: count((r) => r.reported_at !== null),
      phished: count((r) => r.clicked_at !== null || r.submitted_at !== null),
      reported_after_click: count(
        (r) => r.reported_at !== null && r.clicked_at !== null && r.reported_at >= r.clicked_at,
      ),
      missed: count((r) => r.sent_at !== null && r.clicked_at === null && r.reported_at === null),
      training_assigned: count((r) => r.training_assigned_at !== null),
      raw_opens: kinds('opened'),
      raw_clicks: kinds('clicked'),
      raw_submits: kinds('submitted'),
      automated_events: events.filter((e) => e.classification === 'automated').length,
    },
    activity: {
      delivered: sum('delivered'),
      opened: sum('opened'),
      clicked: sum('clicked'),
      submitted: sum('submitted'),
      reported: sum('reported'),
    },
    delays: { click: delayPeople('click'), report: delayPeople('report') },
  };
}

/** The kept figures in the shape recountFigures gives. */
export async function keptFigures(app: FastifyInstance, campaignId: number) {
  const f = await figuresOf(app, campaignId);
  const expected = await recountFigures(app, campaignId);
  const kept = Object.fromEntries(
    Object.keys(expected.kept).map((k) => [k, Number(f[k as keyof typeof f])]),
  ) as typeof expected.kept;
  return {
    kept,
    activity: expected.activity,
    expected,
  };
}

export const BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

export const quietLog: WorkerLog = { info() {}, warn() {}, error() {} };

/**
 * One pass of the scheduler as a worker runs it, at `Date.now() + ms` (the clock driven, nobody
 * sleeps): tracking hits whose burst window has passed by then settle.
 */
export function schedulerPassIn(app: FastifyInstance, ms = 60_000) {
  return runScheduledWork(app.db, Date.now() + ms, quietLog);
}

/**
 * Sends the mail due at `now` as the mail worker does, through the outbox transport (what was sent
 * stays in `messages`, its text included), with learner links on the app's PUBLIC_URL valid
 * `linkTtlMs` from `now`.
 */
export function sendQueuedMail(app: FastifyInstance, now = Date.now(), linkTtlMs = 30 * 86_400_000) {
  return drainMailQueue({
    db: app.db,
    transport: createMailTransport({ concurrency: 1, timeoutMs: 5_000 }),
    baseUrl: publicBaseUrl(app),
    from: 'Security <security@vigil.example>',
    ratePerMinute: 1_000_000,
    concurrency: 1,
    maxAttempts: 3,
    retryBaseMs: 60_000,
    leaseMs: 120_000,
    linkTtlMs,
    log: quietLog,
    clock: manualClock(now),
  });
}

/** A webhook endpoint for every event of the account; `events()` gives what was emitted since, in order. */
export async function listenToWebhooks(app: FastifyInstance, accountId: number) {
  await createEndpoint(app.db, {
    accountId,
    url: 'https://hooks.example.com/vigil',
    policy: app.config.webhooks,
  });
  return {
    async events() {
      const rows = await app.db
        .selectFrom('webhook_events')
        .select('payload')
        .where('account_id', '=', accountId)
        .orderBy('id')
        .execute();
      return rows.map(
        (r) =>
          JSON.parse(r.payload) as { type: string; data: { recipient_id?: number; [k: string]: unknown } },
      );
    },
  };
}
