import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { type Db, dialectOf } from '../../db/database.js';
import { sliceSize } from '../../db/id-slices.js';
import type { PhishingDimension } from '../../db/schema.js';
import { AppError, FieldErrorCollector } from '../../errors.js';
import { yieldToOthers } from '../../event-loop.js';
import { insertCampaign, replaceCampaignCourses } from '../campaigns/campaigns.repository.js';
import { employeeIdAfter } from '../employees/employees.repository.js';
import { MAIL_PRIORITY } from '../mail/mail.queue.js';
import {
  dueScheduledPhishingCampaignsOfAllAccounts,
  lockPhishingCampaign,
  ownPhishingCampaignId,
  snapshotTemplates,
  updatePhishingCampaignRow,
} from './phishing.campaigns.repository.js';
import { checkReadyToSend } from './phishing.campaigns.rules.js';
import {
  getPhishingCampaign,
  type PhishingCampaignView,
  phishingCampaignNotFound,
  phishingCampaignView,
  phishingWrongStatus,
} from './phishing.campaigns.service.js';
import { insertFigureRows } from './phishing.figures.repository.js';
import { SIMULATION_TOKEN_BYTES } from './phishing.links.js';
import { templatesByKeys } from './phishing.templates.lookup.js';
import { emitPhishingCampaignEvent } from './phishing.webhooks.js';
import { momentSampler, openIntervals } from './phishing.window.js';

export interface LaunchPhishingProps {
  accountId: number;
  campaignId: number;
  /** `now`: an administrator launches it now; `scheduled`: the scheduler, when its window opens. */
  trigger: 'now' | 'scheduled';
  now?: number;
  /** The source of the draws (tests pin it). */
  random?: () => number;
}

/** `count` simulation tokens (as newSimulationToken makes them) from one draw of random bytes. */
function simulationTokens(count: number): string[] {
  const bytes = randomBytes(SIMULATION_TOKEN_BYTES * count);
  const out = new Array<string>(count);
  for (let i = 0; i < count; i++) {
    out[i] = bytes
      .subarray(i * SIMULATION_TOKEN_BYTES, (i + 1) * SIMULATION_TOKEN_BYTES)
      .toString('base64url');
  }
  return out;
}

/**
 * The members of the campaign's groups with id in (after, upTo], the account's employees only,
 * once each, with the campaign's groups they are in as a JSON array text ascending (`[3,7]`,
 * made by the database: no per-row JSON in Node).
 */
async function peopleOfSlice(
  trx: Db,
  accountId: number,
  campaignId: number,
  after: number,
  upTo: number,
): Promise<{ employee_id: number; group_ids: string }[]> {
  const groups =
    dialectOf(trx) === 'postgres'
      ? sql<string>`'[' || string_agg(cg.group_id::text, ',' order by cg.group_id) || ']'`
      : sql<string>`'[' || group_concat(cg.group_id, ',' order by cg.group_id) || ']'`;
  const rows = await trx
    .selectFrom('phishing_campaign_groups as cg')
    .innerJoin('phishing_campaigns as c', 'c.id', 'cg.campaign_id')
    .innerJoin('groups as g', (j) =>
      j.onRef('g.id', '=', 'cg.group_id').onRef('g.account_id', '=', 'c.account_id'),
    )
    .innerJoin('group_members as gm', 'gm.group_id', 'cg.group_id')
    .innerJoin('employees as e', (j) =>
      j.onRef('e.id', '=', 'gm.employee_id').onRef('e.account_id', '=', 'c.account_id'),
    )
    .select(['gm.employee_id', groups.as('group_ids')])
    .where('c.account_id', '=', accountId)
    .where('cg.campaign_id', '=', campaignId)
    .where('gm.employee_id', '>', after)
    .where('gm.employee_id', '<=', upTo)
    // Deactivated people (SCIM `active: false`) are sent no simulation.
    .where('e.active', '=', 1)
    .groupBy('gm.employee_id')
    .execute();
  return rows.map((r) => ({ employee_id: Number(r.employee_id), group_ids: r.group_ids }));
}

/** A slice's planned recipients, column by column (each array one entry per person). */
interface PlannedSlice {
  employeeIds: number[];
  tokens: string[];
  templateKeys: string[];
  groupIds: string[];
  plannedAt: number[];
}

/**
 * Inserts a slice's recipients and queues one simulation for each, due at its planned moment.
 * PostgreSQL: one statement (the recipients inserted `returning` feed the messages insert), the
 * columns travelling as five array parameters. SQLite: the recipients from one JSON parameter,
 * then the messages as one `insert … select` of this campaign's recipients of the slice.
 * No `on conflict`: the campaign is locked and was a draft or scheduled, so it has no
 * recipients and no simulations yet, and the people of a slice are distinct; the unique indexes
 * (campaign, employee) and messages.phishing_recipient_id still refuse any duplicate.
 */
async function insertSlice(
  trx: Db,
  accountId: number,
  campaignId: number,
  slice: PlannedSlice,
  range: { after: number; upTo: number },
  now: number,
): Promise<void> {
  if (slice.employeeIds.length === 0) return;
  if (dialectOf(trx) === 'postgres') {
    await sql`with r as (
        insert into phishing_recipients
          (account_id, campaign_id, employee_id, token, template_key, group_ids, planned_at, status)
        select ${accountId}, ${campaignId}, u.employee_id, u.token, u.template_key, u.group_ids, u.planned_at, 'scheduled'
        from unnest(${slice.employeeIds}::bigint[], ${slice.tokens}::text[], ${slice.templateKeys}::text[],
          ${slice.groupIds}::text[], ${slice.plannedAt}::bigint[]) as u(employee_id, token, template_key, group_ids, planned_at)
        returning id, account_id, planned_at)
      insert into messages
        (account_id, kind, round, status, attempts, priority, next_attempt_at, created_at, phishing_recipient_id)
      select r.account_id, 'simulation', 0, 'queued', 0, ${MAIL_PRIORITY.bulk}, r.planned_at, ${now}, r.id
      from r`.execute(trx);
    return;
  }
  const rows = new Array<unknown[]>(slice.employeeIds.length);
  for (let i = 0; i < rows.length; i++) {
    rows[i] = [
      slice.employeeIds[i],
      slice.tokens[i],
      slice.templateKeys[i],
      slice.groupIds[i],
      slice.plannedAt[i],
    ];
  }
  await sql`insert into phishing_recipients
      (account_id, campaign_id, employee_id, token, template_key, group_ids, planned_at, status)
    select ${accountId}, ${campaignId}, value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, 'scheduled'
    from json_each(${JSON.stringify(rows)})`.execute(trx);
  await trx
    .insertInto('messages')
    .columns([
      'account_id',
      'kind',
      'round',
      'status',
      'attempts',
      'priority',
      'next_attempt_at',
      'created_at',
      'phishing_recipient_id',
    ])
    .expression(
      trx
        .selectFrom('phishing_recipients as r')
        .select([
          'r.account_id',
          sql.lit('simulation').as('kind'),
          sql.lit(0).as('round'),
          sql.lit('queued').as('status'),
          sql.lit(0).as('attempts'),
          sql.lit(MAIL_PRIORITY.bulk).as('priority'),
          'r.planned_at',
          sql.lit(now).as('created_at'),
          'r.id',
        ])
        // The campaign id itself in the condition (its (campaign, employee) index), the account
        // checked through the campaign: an (account, employee) index scan would read every
        // earlier campaign's recipients of the slice's people too.
        .where('r.campaign_id', '=', campaignId)
        .where((eb) => eb.exists(ownPhishingCampaignId(trx, accountId, campaignId)))
        .where('r.employee_id', '>', range.after)
        .where('r.employee_id', '<=', range.upTo),
    )
    .execute();
}

/**
 * Launches a phishing campaign, in one transaction: it becomes `running`; every member of its
 * target groups (the account's employees only, once each however many of the groups they are
 * in) gets a recipient row with an unguessable token, a template drawn from the pool and a
 * random moment inside the send window (from now, if the window has already opened); the pool's
 * templates are snapshotted; the figures rows are made with their counts of recipients; and one
 * simulation per recipient is queued, due at its moment. The mail worker sends each then.
 * With remedial courses, a training campaign `<name>: remedial training` is made and started.
 * People are handled in slices of the account's employees by id, as a training launch does.
 */
export async function launchPhishingCampaign(
  db: Db,
  props: LaunchPhishingProps,
): Promise<PhishingCampaignView> {
  const { accountId, campaignId: id } = props;
  const now = props.now ?? Date.now();
  const random = props.random ?? Math.random;
  await db.transaction().execute(async (trx) => {
    await launchInTransaction(trx, props, now, random);
    await emitPhishingCampaignEvent(trx, accountId, id, 'phishing.campaign_launched');
  });
  return getPhishingCampaign(db, accountId, id);
}

async function launchInTransaction(
  trx: Db,
  props: LaunchPhishingProps,
  now: number,
  random: () => number,
): Promise<void> {
  const { accountId, campaignId: id } = props;
  {
    const row = await lockPhishingCampaign(trx, accountId, id);
    if (!row) throw phishingCampaignNotFound();
    const from = props.trigger === 'now' ? ['draft', 'scheduled'] : ['scheduled'];
    if (!from.includes(row.status)) throw phishingWrongStatus('launch', row.status);
    const campaign = await phishingCampaignView(trx, accountId, row);
    const errors = new FieldErrorCollector();
    checkReadyToSend(errors, campaign, now);
    const templates = await templatesByKeys(trx, accountId, campaign.template_keys);
    const missing = campaign.template_keys.filter((k) => !templates.has(k));
    if (missing.length > 0) errors.add('template_keys', `unknown templates: ${missing.join(', ')}`);
    errors.throwIfAny();
    const sample = momentSampler(
      openIntervals(
        {
          startAt: campaign.window_start_at as number,
          endAt: campaign.window_end_at as number,
          weekdays: campaign.weekdays,
          hourStart: campaign.hour_start,
          hourEnd: campaign.hour_end,
          timeZone: campaign.time_zone,
        },
        now,
      ),
      random,
    );

    let remedialId: number | null = null;
    if (campaign.course_keys.length > 0) {
      const remedial = await insertCampaign(trx, accountId, {
        name: `${campaign.name}: remedial training`.slice(0, 150),
        description: `Remedial training of the phishing simulation "${campaign.name}".`.slice(0, 2000),
        status: 'active',
        start_at: now,
        launched_at: now,
        created_at: now,
        updated_at: now,
      });
      await replaceCampaignCourses(trx, accountId, remedial.id, campaign.course_keys);
      remedialId = remedial.id;
    }
    const launched = await updatePhishingCampaignRow(
      trx,
      accountId,
      id,
      { status: 'running', launched_at: now, remedial_campaign_id: remedialId, updated_at: now },
      ['draft', 'scheduled'],
    );
    if (!launched) throw phishingWrongStatus('launch', row.status);
    await snapshotTemplates(
      trx,
      accountId,
      id,
      new Map([...templates].map(([key, t]) => [key, JSON.stringify(t.content)])),
    );

    const pool = campaign.template_keys;
    const byGroup = new Map<number, number>();
    const byTemplate = new Map<string, number>(pool.map((k) => [k, 0]));
    let total = 0;
    const size = sliceSize(trx);
    /** Recipients by their set of groups (a handful of distinct sets): counted per group at the end. */
    const byGroups = new Map<string, number>();
    for (let after = 0; ; ) {
      const upTo = (await employeeIdAfter(trx, accountId, after, size)) ?? Number.MAX_SAFE_INTEGER;
      const people = await peopleOfSlice(trx, accountId, id, after, upTo);
      const n = people.length;
      const tokens = simulationTokens(n);
      const slice: PlannedSlice = {
        employeeIds: new Array<number>(n),
        tokens,
        templateKeys: new Array<string>(n),
        groupIds: new Array<string>(n),
        plannedAt: new Array<number>(n),
      };
      for (let i = 0; i < n; i++) {
        const person = people[i] as { employee_id: number; group_ids: string };
        const key = pool[Math.floor(random() * pool.length)] as string;
        slice.employeeIds[i] = person.employee_id;
        slice.templateKeys[i] = key;
        slice.groupIds[i] = person.group_ids;
        slice.plannedAt[i] = sample();
        byGroups.set(person.group_ids, (byGroups.get(person.group_ids) ?? 0) + 1);
        byTemplate.set(key, (byTemplate.get(key) ?? 0) + 1);
      }
      total += n;
      await insertSlice(trx, accountId, id, slice, { after, upTo }, now);
      if (upTo === Number.MAX_SAFE_INTEGER) break;
      after = upTo;
      await yieldToOthers();
    }
    for (const [set, count] of byGroups) {
      for (const g of JSON.parse(set) as number[]) byGroup.set(g, (byGroup.get(g) ?? 0) + count);
    }
    const figures: { dimension: PhishingDimension; key: string; recipients: number }[] = [
      { dimension: 'all', key: '', recipients: total },
      ...campaign.group_ids.map((g) => ({
        dimension: 'group' as const,
        key: String(g),
        recipients: byGroup.get(g) ?? 0,
      })),
      ...[...byTemplate].map(([key, n]) => ({ dimension: 'template' as const, key, recipients: n })),
    ];
    await insertFigureRows(trx, id, figures);
  }
}

/** Launches the scheduled campaigns whose window has opened (the scheduler calls this). Returns how many. */
export async function launchDuePhishingCampaignsOfAllAccounts(
  db: Db,
  now: number,
  log?: { warn(obj: object, msg: string): void },
): Promise<number> {
  // Cross-account by design: the scheduler launches every account's due campaigns, each in its account.
  let launched = 0;
  for (const c of await dueScheduledPhishingCampaignsOfAllAccounts(db, now, 100)) {
    try {
      await launchPhishingCampaign(db, {
        accountId: c.account_id,
        campaignId: c.id,
        trigger: 'scheduled',
        now,
      });
      launched++;
    } catch (err) {
      if (err instanceof AppError && err.code === 'campaign_status_conflict') continue;
      if (err instanceof AppError && err.code === 'validation_failed') {
        // Its window has no open hour left (or a template went): back to draft, so it does not
        // come up again on every pass; the administrator sees it there.
        log?.warn(
          { campaign: c.id, account: c.account_id, details: err.details },
          'scheduler: a phishing campaign could not launch',
        );
        await updatePhishingCampaignRow(db, c.account_id, c.id, { status: 'draft', updated_at: now }, [
          'scheduled',
        ]);
        continue;
      }
      throw err;
    }
  }
  return launched;
}
