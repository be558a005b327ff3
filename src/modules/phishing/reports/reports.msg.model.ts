import MsgReaderModule, { type FieldsData } from '@kenjiuno/msgreader';
import type { MailLike } from './reports.content.model.js';

// The package is CommonJS: its default export arrives as the module object under Node's ESM.
type MsgReaderClass = new (
  bytes: ArrayBuffer,
) => {
  getFileData(): FieldsData;
  getAttachment(attachment: FieldsData): { fileName: string; content: Uint8Array };
};
const MsgReader = ((MsgReaderModule as unknown as { default?: unknown }).default ??
  MsgReaderModule) as unknown as MsgReaderClass;

/**
 * An Outlook item (.msg, a Compound File) read into the shape of a parsed MIME message, with
 * @kenjiuno/msgreader: its transport headers (where the simulation header travels), sender,
 * subject, text, HTML and attachments. An embedded item is read from the fields the library
 * already parsed, without its own attachments. Runs only in the reading threads, which end a read
 * that outlives its deadline (a crafted file's sector chains are the library's to walk).
 */

/** The most transport-header characters read (a real header block is a few KiB). */
const MSG_HEADERS_MAX = 256 * 1024;

export interface MsgMail extends MailLike {
  headerLines: Array<{ key: string; line: string }>;
  /** Items attached to this one, read as messages of their own. */
  embedded: MsgMail[];
}

/** Reads a .msg; throws whatever the library throws on bytes that are no Outlook item. */
export function readMsg(raw: Buffer): MsgMail {
  const bytes = new Uint8Array(raw).buffer;
  const reader = new MsgReader(bytes);
  const fields = reader.getFileData();
  // The library reads what it can: bytes that are no item give an empty one, which is refused.
  const empty = !fields.subject && !fields.body && !fields.bodyHtml && !fields.headers && !fields.senderEmail;
  if (fields.error || empty) throw new Error('not an Outlook item');
  const mail = mailOfFields(fields);
  for (const attachment of fields.attachments ?? []) {
    if (attachment.innerMsgContent) {
      if (attachment.innerMsgContentFields)
        mail.embedded.push(mailOfFields(attachment.innerMsgContentFields));
      continue;
    }
    const data = reader.getAttachment(attachment);
    const content = Buffer.from(data.content);
    mail.attachments.push({
      filename: data.fileName,
      contentType: attachment.attachMimeTag ?? 'application/octet-stream',
      size: content.length,
      content,
    });
  }
  return mail;
}

function mailOfFields(fields: FieldsData): MsgMail {
  const headerLines = headerLinesOf(fields.headers ?? '');
  const fromLine = headerLines.find((h) => h.key === 'from');
  const address =
    fields.senderAddressType === 'SMTP' || fields.senderEmail?.includes('@')
      ? (fields.senderEmail ?? '')
      : (fields.senderSmtpAddress ?? fields.creatorSMTPAddress ?? '');
  return {
    headerLines,
    from: { value: [{ address: address || addressIn(fromLine?.line ?? ''), name: fields.senderName ?? '' }] },
    to: {
      value: (fields.recipients ?? [])
        .filter((r) => r.recipType === 'to')
        .map((r) => ({ address: r.smtpAddress ?? r.email ?? '' })),
    },
    subject: fields.subject ?? '',
    date: fields.messageDeliveryTime ? new Date(fields.messageDeliveryTime) : undefined,
    messageId:
      fields.messageId ??
      headerLines
        .find((h) => h.key === 'message-id')
        ?.line.slice(11)
        .trim() ??
      '',
    text: fields.body ?? '',
    html: fields.bodyHtml ?? (fields.html ? Buffer.from(fields.html).toString('utf8') : false),
    attachments: [],
    embedded: [],
  };
}

/** Unfolded header lines of a transport-header block, each with its lower-cased name. */
function headerLinesOf(block: string): Array<{ key: string; line: string }> {
  const lines: Array<{ key: string; line: string }> = [];
  for (const physical of block.slice(0, MSG_HEADERS_MAX).split(/\r?\n/)) {
    if (physical === '') break;
    const last = lines[lines.length - 1];
    if ((physical[0] === ' ' || physical[0] === '\t') && last) {
      last.line += `\r\n${physical}`;
      continue;
    }
    const colon = physical.indexOf(':');
    if (colon <= 0) continue;
    lines.push({ key: physical.slice(0, colon).trim().toLowerCase(), line: physical });
  }
  return lines;
}

function addressIn(line: string): string {
  const match = /<([^<>\s]{1,320})>/.exec(line.slice(0, 1000));
  return match?.[1] ?? '';
}
