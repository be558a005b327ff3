import type {
  ComposedMail,
  ComposeOptions,
  MailComposer,
  MailToCompose,
  MessageDescription,
  OutgoingMail,
} from '../../mail/index.js';
import { messageIdFor } from '../../mail/index.js';
import { effectiveSender } from '../settings/settings.sender.model.js';
import { recordSimulationOutcome } from '../simulation/simulation.delivery.commands.js';
import { SIMULATION_HEADER, simulationLink, trackingImageUrl } from '../simulation/simulation.links.model.js';
import {
  type EmailVars,
  renderEmail,
  renderEmailText,
  withoutTrackingImage,
} from '../templates/templates.render.model.js';
import type { PhishingTemplateContent } from '../templates/templates.rules.model.js';
import {
  type SimulationMailContext,
  simulationMailContexts,
  simulationMailContextsOfAccount,
} from './campaigns.mail.repository.js';

/** Why a simulation will not be sent, or null when it should go out. */
function simulationCancelReason(ctx: SimulationMailContext | undefined): string | null {
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
 * A simulation's template with its sender applied (the campaign's name, address and domain, else
 * the account's defaults, else the template's own and PHISH_URL's host), and the values of its
 * variables: the person's, the account's display name, the link, the sender domain. The send and
 * the outbox's description use this one function, so the outbox shows the From that was sent.
 */
function simulationContent(
  ctx: SimulationMailContext,
  template: PhishingTemplateContent,
  token: string,
  phishBase: string,
): { content: PhishingTemplateContent; vars: EmailVars } {
  const sender = effectiveSender(
    ctx,
    {
      sender_name: ctx.account_sender_name,
      sender_address: ctx.account_sender_address,
      sender_domain: ctx.account_sender_domain,
    },
    template,
    hostOf(phishBase),
  );
  return {
    // A sender name chosen by the campaign or account is plain text (checked to hold no variable).
    content: { ...template, sender_name: sender.name ?? '', sender_address: sender.address ?? '' },
    vars: {
      first_name: ctx.first_name ?? '',
      last_name: ctx.last_name ?? '',
      email: ctx.email ?? '',
      company: ctx.account_name ?? '',
      link: simulationLink(phishBase, token),
      sender_domain: sender.domain,
    },
  };
}

/** The From header of a rendered simulation: `"<sender name>" <local@sender_domain>`. */
export function fromOf(rendered: { sender_name: string; sender_address: string }): string {
  return rendered.sender_name
    ? `${quotedName(rendered.sender_name)} <${rendered.sender_address}>`
    : rendered.sender_address;
}

/**
 * One simulation: the recipient's template as the launch snapshotted it, with the person's
 * current name and address, the account's name, the personal link and tracking image on
 * PHISH_URL, the sender (the campaign's name, address and domain, else the account's defaults,
 * else the template's and PHISH_URL's host), and the account's simulation header (by default
 * `X-Vigil-Simulation`).
 */
function composeSimulation(
  message: MailToCompose,
  ctx: SimulationMailContext,
  options: ComposeOptions,
): OutgoingMail | string {
  const reason = simulationCancelReason(ctx);
  if (reason !== null) return reason;
  const token = ctx.token as string;
  const phishBase = options.phishBaseUrl ?? options.baseUrl;
  const template = JSON.parse(ctx.snapshot as string) as PhishingTemplateContent;
  const { content, vars } = simulationContent(ctx, template, token, phishBase);
  const rendered = renderEmail(content, vars, { trackingImageUrl: trackingImageUrl(phishBase, token) });
  return {
    from: fromOf(rendered),
    to: ctx.email as string,
    subject: rendered.subject,
    text: rendered.text,
    html: rendered.html,
    messageId: messageIdFor(message.id, phishBase),
    headers: { [ctx.simulation_header ?? SIMULATION_HEADER]: token },
    secrets: [token],
  };
}

/**
 * What the outbox shows of a simulation besides its record: its phishing campaign, the From it
 * is (or was) sent with, composed as composeSimulation composes it, and its simulation header. A simulation whose recipient or template is gone has no From to show.
 */
function describeSimulation(ctx: SimulationMailContext, phishBase: string): MessageDescription {
  const description: MessageDescription = {};
  if (ctx.campaign_id !== null) description.campaign = { id: ctx.campaign_id, name: ctx.campaign_name ?? '' };
  if (ctx.token === null) return description;
  description.headers = { [ctx.simulation_header ?? SIMULATION_HEADER]: ctx.token };
  if (ctx.snapshot !== null) {
    const { content, vars } = simulationContent(
      ctx,
      JSON.parse(ctx.snapshot) as PhishingTemplateContent,
      ctx.token,
      phishBase,
    );
    description.from = fromOf(renderEmailText(content, vars));
  }
  return description;
}

/**
 * The simulations' mail. Once the worker has recorded a simulation's outcome, its phishing
 * recipient records it too (status, event, figures: recordSimulationOutcome); should that fail,
 * the scheduler's catch-up records it later (catchUpSimulationOutcomesOfAllAccounts). The admin
 * outbox shows a simulation without its tracking image, so viewing it records no open.
 */
export const simulationMailComposer: MailComposer = {
  async prepare(db, messages, options): Promise<ComposedMail> {
    const simulations = await simulationMailContexts(
      db,
      messages.map((m) => m.id),
    );
    return {
      compose(message) {
        const sim = simulations.get(message.id);
        return sim ? composeSimulation(message, sim, options) : 'not sent: the simulation no longer exists';
      },
      async recordOutcome(message, outcome, at) {
        const recipientId = simulations.get(message.id)?.recipient_id ?? undefined;
        if (recipientId === undefined) return;
        await recordSimulationOutcome(db, message.accountId, recipientId, outcome, at);
      },
    };
  },
  shownHtml: withoutTrackingImage,
  async describe(db, accountId, messageIds, options) {
    const simulations = await simulationMailContextsOfAccount(db, accountId, messageIds);
    const phishBase = options.phishBaseUrl ?? options.baseUrl;
    return new Map([...simulations].map(([id, ctx]) => [id, describeSimulation(ctx, phishBase)]));
  },
};
