import { randomBytes } from 'node:crypto';
import { recordAudit } from '../../../core/audit/audit.js';
import type { Db } from '../../../core/db/database.js';
import { sliceSize } from '../../../core/db/id-slices.js';
import type { PhishingDimension } from '../../../core/db/schema.js';
import { type AppError, FieldErrorCollector } from '../../../core/errors.js';
import { yieldToOthers } from '../../../core/event-loop.js';
import { employeeSliceEnd } from '../../directory/index.js';
import { MAIL_PRIORITY } from '../../mail/index.js';
import { createRemedialCampaign } from '../../training/index.js';
import type { SenderPolicy } from '../settings/settings.sender.model.js';
import { checkEffectiveSenderDomain } from '../settings/settings.sender.service.js';
import { emitPhishingCampaignEvent } from '../simulation/simulation.domain-events.commands.js';
import { insertFigureRows } from '../simulation/simulation.figures.repository.js';
import { SIMULATION_TOKEN_BYTES } from '../simulation/simulation.links.model.js';
import { templatesByKeys } from '../templates/templates.lookup.service.js';
import { insertSlice, type PlannedSlice, peopleOfSlice } from './campaigns.launch.repository.js';
import { checkReadyToSend, PHISHING_LIFECYCLE } from './campaigns.model.js';
import {
  lockPhishingCampaign,
  snapshotTemplates,
  updatePhishingCampaignRow,
} from './campaigns.repository.js';
import {
  getPhishingCampaign,
  type PhishingCampaignView,
  phishingCampaignNotFound,
  phishingCampaignView,
  phishingWrongStatus,
} from './campaigns.service.js';
import { momentSampler, type SendWindow, sendPlan, windowOf } from './campaigns.window.model.js';

export interface LaunchPhishingProps {
  accountId: number;
  campaignId: number;
  /** `now`: an administrator launches it now; `scheduled`: the scheduler, when its window opens. */
  trigger: 'now' | 'scheduled';
  now?: number;
  /** The source of the draws (tests pin it). */
  random?: () => number;
  /**
   * The server's sender policy: the domain the campaign would send from is checked first (by an
   * administrator's launch, and again by the scheduler's; only tests leave it out).
   */
  sender?: SenderPolicy;
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
    if (!PHISHING_LIFECYCLE.launchFrom(props.trigger).includes(row.status))
      throw phishingWrongStatus('launch', row.status);
    const campaign = await phishingCampaignView(trx, accountId, row);
    const errors = new FieldErrorCollector();
    checkReadyToSend(errors, campaign, now);
    const templates = await templatesByKeys(trx, accountId, campaign.template_keys);
    const missing = campaign.template_keys.filter((k) => !templates.has(k));
    if (missing.length > 0) errors.add('template_keys', `unknown templates: ${missing.join(', ')}`);
    errors.throwIfAny();
    if (props.sender) {
      await checkEffectiveSenderDomain(trx, accountId, campaign.sender_domain, props.sender, errors);
    }
    errors.throwIfAny();
    const sample = momentSampler(sendPlan(windowOf(campaign) as SendWindow, now).intervals, random);

    let remedialId: number | null = null;
    if (campaign.course_keys.length > 0) {
      remedialId = await createRemedialCampaign(trx, accountId, {
        name: `${campaign.name}: remedial training`.slice(0, 150),
        description: `Remedial training of the phishing simulation "${campaign.name}".`.slice(0, 2000),
        courseKeys: campaign.course_keys,
        now,
      });
    }
    const launched = await updatePhishingCampaignRow(
      trx,
      accountId,
      id,
      { status: 'running', launched_at: now, remedial_campaign_id: remedialId, updated_at: now },
      PHISHING_LIFECYCLE.move('launch').from,
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
    let firstAt = Number.POSITIVE_INFINITY;
    let lastAt = Number.NEGATIVE_INFINITY;
    const size = sliceSize(trx);
    /** Recipients by their set of groups (a handful of distinct sets): counted per group at the end. */
    const byGroups = new Map<string, number>();
    for (let after = 0; ; ) {
      const upTo = (await employeeSliceEnd(trx, accountId, after, size)) ?? Number.MAX_SAFE_INTEGER;
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
        const at = sample();
        slice.plannedAt[i] = at;
        if (at < firstAt) firstAt = at;
        if (at > lastAt) lastAt = at;
        byGroups.set(person.group_ids, (byGroups.get(person.group_ids) ?? 0) + 1);
        byTemplate.set(key, (byTemplate.get(key) ?? 0) + 1);
      }
      total += n;
      await insertSlice(trx, accountId, id, slice, { after, upTo }, now, MAIL_PRIORITY.bulk);
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
    if (total > 0) {
      await updatePhishingCampaignRow(trx, accountId, id, {
        planned_first_at: firstAt,
        planned_last_at: lastAt,
      });
    }
    await recordAudit(trx, {
      accountId,
      action: 'phishing_campaign.launched',
      object: { type: 'phishing_campaign', id, label: row.name },
      changes: {
        status: { from: row.status, to: 'running' },
        recipients: { from: null, to: total },
        trigger: { from: null, to: props.trigger },
      },
    });
  }
}

/**
 * A scheduled launch refused by its checks (its window has no open hour left, or a template
 * went): back to draft, so it does not come up again on every pass; the administrator sees it
 * there. Returns false for any other error.
 */
export async function returnUnlaunchableToDraft(
  db: Db,
  campaign: { id: number; account_id: number },
  err: AppError,
  now: number,
  log?: { warn(obj: object, msg: string): void },
): Promise<boolean> {
  if (err.code !== 'validation_failed') return false;
  log?.warn(
    { campaign: campaign.id, account: campaign.account_id, details: err.details },
    'scheduler: a phishing campaign could not launch',
  );
  await updatePhishingCampaignRow(
    db,
    campaign.account_id,
    campaign.id,
    { status: 'draft', updated_at: now },
    ['scheduled'],
  );
  return true;
}
