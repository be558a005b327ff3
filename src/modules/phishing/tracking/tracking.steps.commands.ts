import { diffFields, recordAudit } from '../../../core/audit/audit.js';
import type { Db } from '../../../core/db/database.js';
import type { PhishingClassification } from '../../../core/db/schema.js';
import { AppError } from '../../../core/errors.js';
import { parsedScannerNetworksOf } from '../settings/settings.lookup.service.js';
import {
  type ClassificationReason,
  classifyHit,
  clickToPromote,
  PROMOTABLE_REASONS,
  promotesEarlierClick,
} from '../simulation/simulation.classify.model.js';
import { emitSimulationSteps } from '../simulation/simulation.domain-events.commands.js';
import {
  eventOfCampaign,
  eventsOfRecipient,
  promoteEvent,
  reclassifyEvent,
} from '../simulation/simulation.events.repository.js';
import type { FigureDeltas, FigureMembership } from '../simulation/simulation.figures.repository.js';
import {
  type RecipientSteps,
  type RecipientWithCampaign,
  recipientForUpdate,
  updateRecipientSteps,
  writeRecipientSteps,
} from '../simulation/simulation.recipients.repository.js';
import { normalizeClientAddress } from '../simulation/simulation.scanners.model.js';
import { SETTLE_DELAY_MS, settlesLater } from './tracking.bursts.model.js';
import { announceSettled, awaitsAnnouncement } from './tracking.remedial.commands.js';
import { clearAllSettling, recipientsStillSettling } from './tracking.settle.repository.js';
import { alone, StepBatch, type StepMachine, type Work } from './tracking.steps.batch.commands.js';
import {
  applyStepChanges,
  changedSteps,
  EVENT_KIND,
  headerText,
  interactedOnPage,
  membershipOf,
  RECLASSIFIABLE,
  rawFigures,
  type StepInput,
  type StepResult,
  statusOf,
  stepsChanged,
  timesAfter,
  timesFromEvents,
  timesOf,
} from './tracking.steps.model.js';

/**
 * The commands that move a phishing recipient (docs/phishing-plan.md, "Area C"): a hit or a
 * report recorded, an administrator's reclassification. Every hit is an event (append-only); a
 * human one of a running campaign moves the recipient's first times and status as the state
 * model says (tracking.steps.model.ts), and in the same transaction the figures, the delay
 * histograms and the activity (tracking.steps.batch.commands.ts). What a failure sets off (the
 * first click's webhook, the remedial enrollment) waits until the hit settled
 * (tracking.bursts.model.ts, tracking.settle.commands.ts). A reclassification recomputes the
 * recipient from its human events and applies the differences the same way.
 */

/**
 * Records one hit of a recipient found by its token (or a report) and moves the recipient when
 * it is a person's and the campaign is running. A campaign that is not running records nothing
 * and changes nothing (its links only show the teachable page).
 */
export async function recordStep(
  db: Db,
  machine: StepMachine,
  found: RecipientWithCampaign,
  input: StepInput,
): Promise<StepResult> {
  if (found.campaign_status !== 'running') return { recorded: false };
  const accountId = found.account_id;
  const kind = EVENT_KIND[input.kind];
  const userAgent = headerText(input.headers['user-agent']);
  // One spelling per client, as the burst rule reads the recorded hits by address.
  const clientAddress = input.clientAddress ? normalizeClientAddress(input.clientAddress) : '';

  const { classification, reason } = await classifyStep(db, machine, found, input, clientAddress);
  // A browser's open or click waits until no scanner's burst can claim it (tracking.settle.commands.ts).
  const settles = settlesLater(input.kind, { classification, reason });

  const work: Work = async (trx, batch) => {
    const recipient = await batch.recipient(trx, accountId, found.id);
    if (recipient?.campaign_status !== 'running') return { recorded: false };
    const member = membershipOf(recipient);
    batch.addEvent(accountId, {
      campaignId: recipient.campaign_id,
      recipientId: recipient.id,
      kind,
      at: input.at,
      clientAddress: clientAddress || null,
      userAgent: userAgent || null,
      classification,
      reason,
      ...(input.fieldNames ? { fieldNames: input.fieldNames } : {}),
      ...(settles ? { settlesAt: input.at + SETTLE_DELAY_MS } : {}),
    });
    const raw = rawFigures(kind, classification);
    if (classification !== 'human') {
      batch.figures.addToFigures(recipient.campaign_id, member, raw);
      return { recorded: true, classification, reason };
    }

    const before = timesOf(recipient);
    let after = timesAfter(before, kind, input.at);
    // A person on the landing page: their click that only timing made automated counts.
    if (
      input.kind !== 'report' &&
      promotesEarlierClick({ kind: input.kind }, { classification, reason: reason as ClassificationReason })
    ) {
      await batch.flushEvents(trx);
      const clicks = (await eventsOfRecipient(trx, accountId, recipient.id))
        .filter((e) => e.kind === 'clicked')
        .map((e) => ({
          ...e,
          at: e.occurred_at,
          clientAddress: e.client_address ?? '',
          userAgent: e.user_agent ?? '',
          reason: e.reason as ClassificationReason,
        }));
      const promoted = clickToPromote(
        { at: input.at, clientAddress, userAgent: userAgent.slice(0, 512) },
        clicks,
      );
      if (promoted) {
        await promoteEvent(trx, accountId, promoted.id, reason);
        raw.automated_events = (raw.automated_events ?? 0) - 1;
        after = timesAfter(after, 'clicked', promoted.occurred_at);
      }
    }
    applyStepChanges(batch.figures, recipient.campaign_id, member, before, after, raw);
    const status = statusOf(after, recipient.status);
    const changed = stepsChanged(before, after, recipient.status, status);
    if (changed) {
      // The row is locked (read for update) and `after` derives from what it holds: all of it is written.
      await writeRecipientSteps(trx, accountId, recipient.id, { ...after, status });
      Object.assign(recipient, after, { status });
    }
    const trainingAssigned = settles ? false : await announceIfSettled(trx, batch, recipient, input, member);
    if (changed) await emitSimulationSteps(trx, recipient, before, after);
    return { recorded: true, classification, reason, trainingAssigned, recipient: { ...recipient } };
  };
  return machine.writer ? machine.writer.submit(work, { accountId, recipientId: found.id }) : alone(db, work);
}

/**
 * The classification of a step: a report is a person's; a hit is what `classifyHit` says of it
 * (the account's scanner networks, the campaign's window, the client address's burst), a person
 * who already interacted on the page staying one when timing alone made the hit automated.
 */
async function classifyStep(
  db: Db,
  machine: StepMachine,
  found: RecipientWithCampaign,
  input: StepInput,
  clientAddress: string,
): Promise<{ classification: PhishingClassification; reason: string }> {
  if (input.kind === 'report') return { classification: 'human', reason: input.reportReason ?? 'report_api' };
  const accountId = found.account_id;
  const recent = machine.burst.touch(clientAddress, found.id, input.at, accountId);
  const hit = {
    kind: input.kind,
    at: input.at,
    method: input.method,
    headers: input.headers,
    clientAddress,
  };
  const context = {
    deliveredAt: found.sent_at,
    settings: {
      automatedWindowSeconds: found.automated_window_seconds,
      scannerNetworks: await parsedScannerNetworksOf(db, accountId),
    },
    recentRecipientsFromAddress: recent,
    earlierHumanInteraction: found.submitted_at !== null,
  };
  let verdict = classifyHit(hit, context);
  // Timing alone made it automated: a person who already interacted on the page stays one.
  if (verdict.classification === 'automated' && PROMOTABLE_REASONS.has(verdict.reason)) {
    if (interactedOnPage(await eventsOfRecipient(db, accountId, found.id))) {
      verdict = classifyHit(hit, { ...context, earlierHumanInteraction: true });
    }
  }
  return { classification: verdict.classification, reason: verdict.reason };
}

/**
 * After a hit that is certain as it arrives: the first click's webhook and the remedial
 * enrollment, unless an earlier hit of the recipient still waits to settle. A human form post or
 * button press proves a person on the page, so the recipient's waiting hits settle with it (the
 * burst rule would keep them human anyway).
 */
async function announceIfSettled(
  trx: Db,
  batch: StepBatch,
  recipient: RecipientWithCampaign,
  input: StepInput,
  member: FigureMembership,
): Promise<boolean> {
  if (!awaitsAnnouncement(recipient)) return false;
  await batch.flushEvents(trx);
  if (input.kind === 'submit' || input.kind === 'interaction') {
    await clearAllSettling(trx, recipient.account_id, recipient.id);
  } else if ((await recipientsStillSettling(trx, recipient.account_id, [recipient.id])).size > 0) {
    return false;
  }
  return announceSettled(trx, batch, recipient, member, input.at);
}

/**
 * An administrator's reclassification of one event of the account's campaign: who, when, why
 * and the first classification kept; the recipient's first times and status recomputed from its
 * human events, and the figures moved by the difference (a remedial enrollment already made
 * stays: the training is not taken back).
 */
export async function reclassifyPhishingEvent(
  db: Db,
  props: {
    accountId: number;
    campaignId: number;
    eventId: number;
    classification: PhishingClassification;
    reason: string;
    adminUserId: number;
    now?: number;
  },
) {
  const now = props.now ?? Date.now();
  return db.transaction().execute(async (trx) => {
    const event = await eventOfCampaign(trx, props.accountId, props.campaignId, props.eventId);
    if (!event) throw new AppError('phishing_event_not_found');
    if (!RECLASSIFIABLE.has(event.kind)) throw new AppError('phishing_event_not_reclassifiable');
    const recipient = await recipientForUpdate(trx, props.accountId, event.recipient_id);
    if (!recipient) throw new AppError('phishing_event_not_found');
    const batch = new StepBatch();
    await reclassifyEvent(trx, props.accountId, event.id, {
      classification: props.classification,
      by: props.adminUserId,
      at: now,
      reason: props.reason,
    });
    const member = membershipOf(recipient);
    const extra: FigureDeltas =
      event.classification === props.classification
        ? {}
        : { automated_events: props.classification === 'automated' ? 1 : -1 };
    const before = timesOf(recipient);
    const after = timesFromEvents(
      recipient.sent_at,
      await eventsOfRecipient(trx, props.accountId, recipient.id),
    );
    applyStepChanges(batch.figures, recipient.campaign_id, member, before, after, extra);
    const changed: Partial<RecipientSteps> = changedSteps(before, after);
    const status = statusOf(after, recipient.status);
    if (status !== recipient.status) changed.status = status;
    await updateRecipientSteps(trx, props.accountId, recipient.id, changed);
    Object.assign(recipient, after, { status });
    // An administrator's word is final, but a hit of the recipient still settling is waited for.
    if (
      awaitsAnnouncement(recipient) &&
      (await recipientsStillSettling(trx, props.accountId, [recipient.id])).size === 0
    ) {
      await announceSettled(trx, batch, recipient, member, now);
    }
    await batch.finish(trx);
    const updated = await eventOfCampaign(trx, props.accountId, props.campaignId, props.eventId);
    if (!updated) throw new AppError('phishing_event_not_found');
    await recordAudit(trx, {
      accountId: props.accountId,
      action: 'phishing_event.reclassified',
      object: { type: 'phishing_event', id: event.id, label: event.kind },
      changes: {
        ...diffFields({ classification: event.classification }, { classification: props.classification }),
        reason: { from: null, to: props.reason },
        campaign_id: { from: null, to: props.campaignId },
      },
    });
    return updated;
  });
}
