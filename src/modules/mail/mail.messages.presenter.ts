import { iso, isoOrNull } from '../../core/time.js';
import { type MessageDescription, mailComposerOf, type PreviewImage } from './mail.composers.service.js';
import type { MessageDetailRow, MessageRow } from './mail.messages.repository.js';

/**
 * A message as the outbox shows it. Until an attempt hands it over, `to_address` is where it will
 * go; `attempts_in_doubt` > 0: it may have arrived more than once (each copy the same Message-ID).
 * Its owner's description (describeMessages) gives its From, its own headers and, for a
 * simulation, its phishing campaign.
 */
export function presentMessage(row: MessageRow, description: MessageDescription = {}) {
  const pending = row.status === 'queued' || row.status === 'sending';
  const campaign = row.campaign_id === null ? null : { id: row.campaign_id, name: row.campaign_name ?? '' };
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    to_address: row.to_address ?? row.email ?? null,
    subject: row.subject,
    from: description.from ?? null,
    headers: Object.entries(description.headers ?? {}).map(([name, value]) => ({ name, value })),
    campaign: description.campaign ?? campaign,
    employee:
      row.employee_id === null
        ? null
        : {
            id: row.employee_id,
            first_name: row.first_name ?? '',
            last_name: row.last_name ?? '',
            email: row.email ?? '',
          },
    attempts: row.attempts,
    attempts_in_doubt: row.attempts_in_doubt,
    last_error: row.last_error,
    transport: row.transport,
    created_at: iso(row.created_at),
    sent_at: isoOrNull(row.sent_at),
    next_attempt_at: pending ? iso(row.next_attempt_at) : null,
  };
}

/**
 * The message with what was sent (null until it is), its HTML as its kind's composer shows it:
 * the images it carried inline shown from `data:` URLs, then what only the recipient should load
 * taken out (an inline image not among `images` with it).
 */
export function presentMessageDetail(
  row: MessageDetailRow,
  description: MessageDescription = {},
  images: PreviewImage[] = [],
) {
  const shownHtml = mailComposerOf(row.kind)?.shownHtml;
  let html = row.body_html;
  if (html !== null && images.length > 0) {
    const byCid = new Map(images.map((image) => [image.cid, image.dataUrl]));
    html = html.replace(/src="cid:([^"<>]*)"/g, (src, cid: string) => {
      const dataUrl = byCid.get(cid);
      return dataUrl === undefined ? src : `src="${dataUrl}"`;
    });
  }
  if (shownHtml && html !== null) html = shownHtml(html);
  return { ...presentMessage(row, description), body_text: row.body_text, body_html: html };
}
