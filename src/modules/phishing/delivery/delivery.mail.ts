import { type ComposedMail, type MailComposer, messageIdFor, type OutgoingMail } from '../../mail/index.js';
import { fromOf } from '../campaigns/campaigns.mail.js';
import { effectiveSender } from '../settings/settings.sender.model.js';
import { hostOfUrl } from '../settings/settings.sender.service.js';
import { SIMULATION_HEADER, simulationLink, trackingImageUrl } from '../simulation/simulation.links.model.js';
import { renderEmail, withoutTrackingImage } from '../templates/templates.render.model.js';
import type { PhishingTemplateContent } from '../templates/templates.rules.model.js';
import { recordTestSendOutcome, testSendMailRows } from './delivery.repository.js';

type TestSendMail = Awaited<ReturnType<typeof testSendMailRows>>[number];

/**
 * A test send, composed exactly as a simulation of the account's defaults is (the account's
 * sender, else the template's and PHISH_URL's host; the person's current name; the account's
 * simulation header), so that mail filters treat it as they will treat the campaigns; its link
 * and image carry the test send's own token.
 */
function composeTestSend(row: TestSendMail, messageId: string, phishBase: string): OutgoingMail | string {
  if (row.email === null) return 'not sent: the employee was deleted';
  if (row.employee_active === 0) return 'not sent: the employee is deactivated';
  let template: PhishingTemplateContent;
  try {
    template = JSON.parse(row.snapshot) as PhishingTemplateContent;
  } catch {
    return 'not sent: the template is missing';
  }
  const sender = effectiveSender(
    { sender_name: null, sender_address: null, sender_domain: null },
    {
      sender_name: row.account_sender_name,
      sender_address: row.account_sender_address,
      sender_domain: row.account_sender_domain,
    },
    template,
    hostOfUrl(phishBase) || 'vigil.invalid',
  );
  const rendered = renderEmail(
    { ...template, sender_name: sender.name ?? '', sender_address: sender.address ?? '' },
    {
      first_name: row.first_name ?? '',
      last_name: row.last_name ?? '',
      email: row.email,
      company: row.account_name ?? '',
      link: simulationLink(phishBase, row.token),
      sender_domain: sender.domain,
    },
    { trackingImageUrl: trackingImageUrl(phishBase, row.token) },
  );
  return {
    from: fromOf(rendered),
    to: row.email,
    subject: rendered.subject,
    text: rendered.text,
    html: rendered.html,
    messageId,
    headers: { [row.simulation_header ?? SIMULATION_HEADER]: row.token },
    secrets: [row.token],
  };
}

/** The test sends' mail (kind `simulation_test`); the worker's outcome is the send's status. */
export const testSendMailComposer: MailComposer = {
  async prepare(db, messages, options): Promise<ComposedMail> {
    const rows = new Map(
      (
        await testSendMailRows(
          db,
          messages.map((m) => m.id),
        )
      ).map((r) => [r.message_id, r]),
    );
    const phishBase = options.phishBaseUrl ?? options.baseUrl;
    return {
      compose(message) {
        const row = rows.get(message.id);
        if (!row) return 'not sent: the test send no longer exists';
        try {
          return composeTestSend(row, messageIdFor(message.id, phishBase), phishBase);
        } catch {
          return 'not sent: the template could not be rendered';
        }
      },
      async recordOutcome(message, outcome, at) {
        await recordTestSendOutcome(db, message.id, outcome, at);
      },
    };
  },
  shownHtml: withoutTrackingImage,
};
