import type { Db } from '../../../core/db/database.js';
import { brandingOfAccounts } from '../../access/index.js';
import { type ComposedMail, type MailComposer, messageIdFor, renderMail } from '../../mail/index.js';
import { coursesOfCampaigns } from '../courses/courses.lookup.service.js';
import { learnerLinkSecret, learnerUrl, signLearnerToken } from './learner.links.service.js';
import { type TrainingMessageContext, trainingMessageContexts } from './learner.mail.repository.js';

/** Why a training message will not be sent at all, or null when it should go out. */
function cancelReason(ctx: TrainingMessageContext | undefined): string | null {
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
async function mailCoursesOfCampaigns(db: Db, contexts: TrainingMessageContext[]) {
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
 * The training mail (invitations, reminders, fresh links): reads, at send time, the employee's
 * current name and address, the campaign and its courses. Every message gets a freshly signed
 * personal link, valid `linkTtlMs` from when it is sent, and the Message-ID of its queue row, the
 * same on every attempt.
 */
export const trainingMailComposer: MailComposer = {
  async prepare(db, messages, options): Promise<ComposedMail> {
    const contexts = await trainingMessageContexts(
      db,
      messages.map((m) => m.id),
    );
    const courses = await mailCoursesOfCampaigns(db, [...contexts.values()]);
    const brands = await brandingOfAccounts(
      db,
      [...contexts.values()].map((c) => c.account_id),
    );
    const secret = await learnerLinkSecret(db);
    return {
      compose(message) {
        const ctx = contexts.get(message.id);
        const reason = cancelReason(ctx);
        if (reason !== null || !ctx) return reason ?? 'not sent';
        const now = options.now();
        const linkExpiresAt = now + options.linkTtlMs;
        const token = signLearnerToken(secret, ctx.enrollment_id as number, linkExpiresAt);
        const brand = brands.get(ctx.account_id);
        const logo = brand?.logo ?? null;
        const logoCid = logo && logoCidOf(logo);
        const rendered = renderMail({
          kind: ctx.kind,
          firstName: ctx.first_name ?? '',
          // Employees see the organisation's display name and the course titles, never the campaign's name.
          accountName: brand?.displayName ?? '',
          logoCid,
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
          messageId: messageIdFor(message.id, options.baseUrl),
          ...rendered,
          // A reply quoting the link must not put it in a log line or the Outbox's last error.
          secrets: [token],
          ...(logo &&
            logoCid && {
              inlineImages: [{ cid: logoCid, contentType: logo.contentType, base64: logo.base64 }],
            }),
        };
      },
    };
  },
  // The Outbox shows the account's logo from a data: URL (its preview has no attachments), and
  // leaves out a logo the message carried that has since been replaced.
  async inlineImages(db, accountId) {
    const logo = (await brandingOfAccounts(db, [accountId])).get(accountId)?.logo;
    return logo ? [{ cid: logoCidOf(logo), dataUrl: `data:${logo.contentType};base64,${logo.base64}` }] : [];
  },
  shownHtml: (html) => html.replace(/<img src="cid:[^"<>]*"[^<>]*>/g, ''),
};

/** The Content-ID the logo is sent under: the same for the same image, another once it changes. */
function logoCidOf(logo: { sha256: string }): string {
  return `logo-${logo.sha256.slice(0, 16)}@vigil`;
}
