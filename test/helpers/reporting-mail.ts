import { randomBytes } from 'node:crypto';

/**
 * Mail as it reaches the reporting address (docs/reporting-address.md), written out by hand in
 * the shapes the senders make, so the tests send what those senders send:
 * - Microsoft 365's built-in Report button with "My reporting mailbox": the reporter's message,
 *   its subject prefixed with the verdict ("Phishing: …"), the reported message attached
 *   unmodified as an .eml (message/rfc822); a mail flow rule redirects it to Vigil unchanged.
 * - Gmail's inline forward: "---------- Forwarded message ---------" and the original's headers
 *   above its text, in text/plain and in a div.gmail_quote.
 * - A phone's forward (iOS Mail): "Begin forwarded message:" and the original in a blockquote.
 */

const CRLF = '\r\n';
const lines = (...parts: string[]) => parts.join(CRLF);
const boundary = () => `----=_Part_${randomBytes(8).toString('hex')}`;
const messageId = (domain: string) => `<${randomBytes(12).toString('hex')}@${domain}>`;

export interface Original {
  from: string;
  to: string;
  subject: string;
  /** Text of the body: a link to the simulation, say. */
  text: string;
  /** Extra header lines (`X-Vigil-Simulation: …`). */
  headers?: string[];
  date?: string;
}

const DATE = 'Thu, 03 Dec 2026 09:12:44 +0100';

/** A message as the employee received it (what Outlook attaches as an .eml). */
export function originalMessage(o: Original): string {
  return lines(
    'Received: from mail.phish.example (mail.phish.example [198.51.100.7]) by AM0PR01MB1234.eurprd01.prod.outlook.com with ESMTPS; Thu, 3 Dec 2026 08:12:40 +0000',
    `From: ${o.from}`,
    `To: ${o.to}`,
    `Subject: ${o.subject}`,
    `Date: ${o.date ?? DATE}`,
    `Message-ID: ${messageId('mail.phish.example')}`,
    'MIME-Version: 1.0',
    'X-MS-Exchange-Organization-Network-Message-Id: 5d1f7b7c-2a65-4f0e-9d3e-08dd0c1b2a3f',
    'X-MS-Exchange-CrossTenant-Id: 72f988bf-86f1-41af-91ab-2d7cd011db47',
    'X-Microsoft-Antispam-Message-Info: =?us-ascii?Q?kq8yJ0PUrU7i4mZ0x1RZ?=',
    ...(o.headers ?? []),
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 7bit',
    '',
    o.text,
    '',
  );
}

export interface Forward {
  /** The reporter, as the From header names them (`Ann Employee <ann@acme.example>`). */
  reporter: string;
  /** The To of the reporter's message (the reporting mailbox, or Vigil's address). */
  to: string;
  original: Original;
}

/**
 * Microsoft 365's reporting mailbox receives this from the built-in Report button ("Phishing:"
 * and the subject; the reported message attached, unmodified); the mail flow rule that
 * redirects the mailbox to Vigil keeps it as it is.
 */
export function microsoft365Report(f: Forward): string {
  const b = boundary();
  return lines(
    `From: ${f.reporter}`,
    `To: ${f.to}`,
    `Subject: Phishing: ${f.original.subject}`,
    `Date: ${DATE}`,
    `Message-ID: ${messageId('AM0PR01MB1234.eurprd01.prod.outlook.com')}`,
    'MIME-Version: 1.0',
    'X-MS-Exchange-Organization-AuthAs: Internal',
    'X-MS-Exchange-Transport-Rules-Loop: 1',
    `Content-Type: multipart/mixed; boundary="${b}"`,
    '',
    `--${b}`,
    'Content-Type: text/plain; charset=us-ascii',
    '',
    'This message was reported as phishing.',
    `--${b}`,
    `Content-Type: message/rfc822; name="${f.original.subject}.eml"`,
    `Content-Disposition: attachment; filename="${f.original.subject}.eml"`,
    '',
    originalMessage(f.original),
    `--${b}--`,
    '',
  );
}

/** Gmail's "Forward" (inline), text and HTML. */
export function gmailForward(f: Forward): string {
  const b = boundary();
  const o = f.original;
  const header = [
    '---------- Forwarded message ---------',
    `From: ${o.from}`,
    'Date: Thu, Dec 3, 2026 at 9:12 AM',
    `Subject: ${o.subject}`,
    `To: ${o.to}`,
  ];
  return lines(
    'MIME-Version: 1.0',
    `Date: ${DATE}`,
    `Message-ID: ${messageId('mail.gmail.com')}`,
    `Subject: Fwd: ${o.subject}`,
    `From: ${f.reporter}`,
    `To: ${f.to}`,
    `Content-Type: multipart/alternative; boundary="${b}"`,
    '',
    `--${b}`,
    'Content-Type: text/plain; charset="UTF-8"',
    '',
    'This looks fishy.',
    '',
    ...header,
    '',
    o.text,
    '',
    `--${b}`,
    'Content-Type: text/html; charset="UTF-8"',
    '',
    `<div dir="ltr">This looks fishy.<br><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">${header.join('<br>')}<br></div><br><br>${o.text}</div></div>`,
    '',
    `--${b}--`,
    '',
  );
}

/** iOS Mail's "Forward" from a phone: "Begin forwarded message:" and the original quoted. */
export function phoneForward(f: Forward): string {
  const b = boundary();
  const o = f.original;
  return lines(
    `From: ${f.reporter}`,
    `Content-Type: multipart/alternative; boundary="${b}"`,
    'Content-Transfer-Encoding: 7bit',
    'Mime-Version: 1.0 (1.0)',
    `Subject: Fwd: ${o.subject}`,
    `Date: ${DATE}`,
    `Message-Id: ${messageId('icloud.com')}`,
    `To: ${f.to}`,
    'X-Mailer: iPhone Mail (22B91)',
    '',
    `--${b}`,
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 7bit',
    '',
    'Sent from my iPhone',
    '',
    'Begin forwarded message:',
    '',
    `From: ${o.from}`,
    `Date: 3 December 2026 at 09:12:44 CET`,
    `To: ${o.to}`,
    `Subject: ${o.subject}`,
    '',
    o.text,
    '',
    `--${b}`,
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: 7bit',
    '',
    `<html><body dir="auto">Sent from my iPhone<div dir="ltr"><br><blockquote type="cite">Begin forwarded message:<br><br><b>From:</b> ${o.from.replace(/</g, '&lt;')}<br><b>Subject:</b> ${o.subject}<br></blockquote></div><blockquote type="cite"><div dir="ltr">${o.text}</div></blockquote></body></html>`,
    `--${b}--`,
    '',
  );
}
