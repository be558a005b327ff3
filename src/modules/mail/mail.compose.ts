import type { Db } from '../../db/database.js';
import { learnerLinkSecret, learnerUrl, signLearnerToken } from '../../learner-links.js';
import { coursesOfCampaigns } from '../courses/courses.lookup.js';
import { SIMULATION_HEADER, simulationLink, trackingImageUrl } from '../phishing/phishing.links.js';
import type { PhishingTemplateContent } from '../phishing/phishing.template-rules.js';
import { renderEmail } from '../phishing/phishing.templates.js';
import {
  type Claim,
  type MessageContext,
  messageContexts,
  type SimulationContext,
  simulationContexts,
} from './mail.repository.js';
import { messageIdFor, renderMail } from './mail.templates.js';
import type { OutgoingMail } from './mail.transport.js';

/**
 * Composes one claimed message: the mail to send, or why it will not be sent (it is then
 * cancelled). `simulationOf` tells the worker which phishing recipient a message is the
 * simulation of, so it records the step once the outcome is known.
 */
export type Composer = ((claim: Claim) => OutgoingMail | string) & {
  simulationOf?: (messageId: number) => number | undefined;
};

export interface ComposeOptions {
  /** Where learners reach the server: the personal links start with it. */
  baseUrl: string;
  from: string;
  linkTtlMs: number;
  now: () => number;
  /** Where simulations' links and tracking images point: PHISH_URL, else `baseUrl`. */
  phishBaseUrl?: string;
}

/** Why a simulation will not be sent, or null when it should go out. */
function simulationCancelReason(ctx: SimulationContext | undefined): string | null {
  if (!ctx || ctx.recipient_id === null || ctx.token === null)
    return 'not sent: the simulation no longer exists';
  if (ctx.employee_deleted_at !== null || ctx.email === null) return 'not sent: the employee was deleted';
  if (ctx.employee_active === 0) return 'not sent: the employee is deactivated';
  if (ctx.campaign_status !== 'running')
    return `not sent: the campaign is ${ctx.campaign_status ?? 'deleted'}`;
  if (ctx.snapshot === null) return 'not sent: the template is missing';
  return null;
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, '') || 'vigil.invalid';
  } catch {
    return 'vigil.invalid';
  }
}

/** A display name as a quoted string of an address header. */
function quotedName(name: string): string {
  return `"${name.replace(/[\\"]/g, '\\$&')}"`;
}

/**
 * One simulation: the recipient's template as the launch snapshotted it, with the person's
 * current name and address, the account's name, the personal link and tracking image on
 * PHISH_URL, the campaign's sender domain, and the `X-Vigil-Simulation` header.
 */
function composeSimulation(
  claim: Claim,
  ctx: SimulationContext,
  options: ComposeOptions,
): OutgoingMail | string {
  const reason = simulationCancelReason(ctx);
  if (reason !== null) return reason;
  const token = ctx.token as string;
  const phishBase = options.phishBaseUrl ?? options.baseUrl;
  const template = JSON.parse(ctx.snapshot as string) as PhishingTemplateContent;
  const senderDomain = ctx.sender_domain ?? hostOf(phishBase);
  const rendered = renderEmail(
    template,
    {
      first_name: ctx.first_name ?? '',
      last_name: ctx.last_name ?? '',
      email: ctx.email ?? '',
      company: ctx.account_name ?? '',
      link: simulationLink(phishBase, token),
      sender_domain: senderDomain,
    },
    { trackingImageUrl: trackingImageUrl(phishBase, token) },
  );
  return {
    from: rendered.sender_name
      ? `${quotedName(rendered.sender_name)} <${rendered.sender_address}>`
      : rendered.sender_address,
    to: ctx.email as string,
    subject: rendered.subject,
    text: rendered.text,
    html: rendered.html,
    messageId: messageIdFor(claim.id, phishBase),
    headers: { [SIMULATION_HEADER]: token },
    secrets: [token],
  };
}

/** Why a message will not be sent at all, or null when it should go out. */
function cancelReason(ctx: MessageContext | undefined): string | null {
  if (!ctx || ctx.enrollment_id === null || ctx.email === null) {
    return 'not sent: the enrollment no longer exists';
  }
  if (ctx.employee_active === 0) return 'not sent: the employee is deactivated';
  if (ctx.campaign_id === null || ctx.campaign_status === null)
    return 'not sent: the campaign no longer exists';
  if (ctx.campaign_status !== 'active') return `not sent: the campaign is ${ctx.campaign_status}`;
  if (ctx.kind === 'reminder' && ctx.completed_at !== null) return 'not sent: the training was completed';
  return null;
}

/** Each campaign's courses as the mail lists them: title and minutes, in the campaign's order. */
async function mailCoursesOfCampaigns(db: Db, contexts: MessageContext[]) {
  const campaignsByAccount = new Map<number, Set<number>>();
  for (const c of contexts) {
    if (c.campaign_id === null) continue;
    const campaigns = campaignsByAccount.get(c.account_id) ?? new Set();
    campaignsByAccount.set(c.account_id, campaigns.add(c.campaign_id));
  }
  const courses = new Map<number, { title: string; minutes: number }[]>();
  // A batch may hold several accounts' messages: each account's campaigns and courses are read in it.
  for (const [accountId, campaigns] of campaignsByAccount) {
    for (const [campaignId, named] of await coursesOfCampaigns(db, accountId, [...campaigns])) {
      courses.set(
        campaignId,
        named.flatMap(({ course }) => (course ? [{ title: course.title, minutes: course.minutes }] : [])),
      );
    }
  }
  return courses;
}

/**
 * Reads, at send time, everything the claimed messages are made of (the employee's current name
 * and address, the campaign, its courses) and returns how to compose each. Every message gets a
 * freshly signed personal link, valid `linkTtlMs` from when it is sent, and the Message-ID of its
 * queue row, the same on every attempt.
 */
export async function mailComposer(db: Db, claims: Claim[], options: ComposeOptions): Promise<Composer> {
  // Cross-account by design: the claims come from the one queue of every account.
  const contexts = await messageContexts(db, claims);
  const simulationIds = [...contexts.values()].filter((c) => c.kind === 'simulation').map((c) => c.id);
  const simulations = await simulationContexts(db, simulationIds);
  const courses = await mailCoursesOfCampaigns(db, [...contexts.values()]);
  const secret = await learnerLinkSecret(db);
  const compose: Composer = (claim) => {
    const ctx = contexts.get(claim.id);
    if (ctx?.kind === 'simulation') {
      const sim = simulations.get(claim.id);
      return sim ? composeSimulation(claim, sim, options) : 'not sent: the simulation no longer exists';
    }
    const reason = cancelReason(ctx);
    if (reason !== null || !ctx) return reason ?? 'not sent';
    const now = options.now();
    const linkExpiresAt = now + options.linkTtlMs;
    const token = signLearnerToken(secret, ctx.enrollment_id as number, linkExpiresAt);
    const rendered = renderMail({
      kind: ctx.kind,
      firstName: ctx.first_name ?? '',
      accountName: ctx.account_name ?? '',
      campaignName: ctx.campaign_name ?? '',
      courses: courses.get(ctx.campaign_id as number) ?? [],
      dueAt: ctx.due_at,
      started: ctx.started_at !== null,
      link: learnerUrl(options.baseUrl, token),
      linkExpiresAt,
      now,
    });
    return {
      from: options.from,
      to: ctx.email as string,
      messageId: messageIdFor(claim.id, options.baseUrl),
      ...rendered,
      // A reply quoting the link must not put it in a log line or the Outbox's last error.
      secrets: [token],
    };
  };
  compose.simulationOf = (messageId) => simulations.get(messageId)?.recipient_id ?? undefined;
  return compose;
}
