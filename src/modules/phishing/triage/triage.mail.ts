import { type ComposedMail, type MailComposer, messageIdFor, type OutgoingMail } from '../../mail/index.js';
import { DEFAULT_FEEDBACK, htmlOfText, renderFeedback } from './triage.feedback.model.js';
import { feedbackMailRows, thanksMailRows } from './triage.repository.js';

/**
 * The mail of the reporting loop: the feedback a reporter gets for a verdict (composed at send
 * time from the report, the verdict then current and the account's template for it), and the
 * thank-you for a simulation reported by mail (written when queued).
 */
export const reportMailComposer: MailComposer = {
  async prepare(db, messages, options): Promise<ComposedMail> {
    const ids = (kind: string) => messages.filter((m) => m.kind === kind).map((m) => m.id);
    const feedback = new Map(
      (await feedbackMailRows(db, ids('report_feedback'))).map((r) => [r.message_id, r]),
    );
    const thanks = new Map((await thanksMailRows(db, ids('report_thanks'))).map((r) => [r.id, r]));
    return {
      compose(message): OutgoingMail | string {
        const messageId = messageIdFor(message.id, options.baseUrl);
        if (message.kind === 'report_thanks') {
          const row = thanks.get(message.id);
          if (!row?.to_address) return 'not sent: the message has no recipient';
          const text = row.body_text ?? '';
          return {
            from: options.from,
            to: row.to_address,
            subject: row.subject ?? '',
            text,
            html: htmlOfText(text),
            messageId,
          };
        }
        const row = feedback.get(message.id);
        if (!row) return 'not sent: the report is gone';
        // The verdict changed since this mail was queued: the newer verdict's mail tells it.
        if (row.verdict === null || row.verdict !== row.feedback_verdict)
          return 'not sent: the verdict changed';
        const template =
          row.template_subject !== null && row.template_body !== null
            ? { subject: row.template_subject, body: row.template_body }
            : DEFAULT_FEEDBACK[row.verdict];
        const rendered = renderFeedback(template, {
          first_name: row.first_name ?? '',
          subject: row.subject,
          verdict: row.verdict,
          note: row.note ?? '',
          company: row.company,
        });
        return { from: options.from, to: row.address, ...rendered, messageId };
      },
    };
  },
};
