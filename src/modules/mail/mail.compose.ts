import type { Db } from '../../db/database.js';
import { learnerLinkSecret, learnerUrl, signLearnerToken } from '../../learner-links.js';
import { coursesOfCampaigns } from '../courses/courses.lookup.js';
import { type Claim, type MessageContext, messageContexts } from './mail.repository.js';
import { messageIdFor, renderMail } from './mail.templates.js';
import type { OutgoingMail } from './mail.transport.js';

/** Composes one claimed message: the mail to send, or why it will not be sent (it is then cancelled). */
export type Composer = (claim: Claim) => OutgoingMail | string;

export interface ComposeOptions {
  /** Where learners reach the server: the personal links start with it. */
  baseUrl: string;
  from: string;
  linkTtlMs: number;
  now: () => number;
}

/** Why a message will not be sent at all, or null when it should go out. */
function cancelReason(ctx: MessageContext | undefined): string | null {
  if (!ctx || ctx.enrollment_id === null || ctx.email === null) {
    return 'not sent: the enrollment no longer exists';
  }
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
  const courses = await mailCoursesOfCampaigns(db, [...contexts.values()]);
  const secret = await learnerLinkSecret(db);
  return (claim) => {
    const ctx = contexts.get(claim.id);
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
}
