import { escape as escapeHtml } from 'html-escaper';
import type { MessageKind } from '../../core/db/schema.js';

/**
 * The training mail: an invitation, reminders and a fresh link on request. Each message is
 * written once as blocks and rendered twice, as plain text and as HTML; every value that comes
 * from data (names, titles) is escaped in the HTML, so a name like `<img onerror=…>` shows as text.
 */

export interface MailData {
  kind: MessageKind;
  firstName: string;
  /** The customer's organisation as employees know it (its display name): who the training is from. */
  accountName: string;
  /**
   * The organisation's logo, attached to the message and shown from it (`cid:`); null: none.
   * Never the campaign's name: that is the administrators' own word, and employees see the
   * course titles instead.
   */
  logoCid?: string | null;
  courses: { title: string; minutes: number }[];
  dueAt: number | null;
  /** The learner has already begun (a reminder then says "pick up where you left off"). */
  started: boolean;
  link: string;
  linkExpiresAt: number;
  /** When the message is rendered (to say how many days are left). */
  now: number;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

type Block =
  | { type: 'p'; text: string }
  | { type: 'list'; items: string[] }
  | { type: 'button'; label: string; url: string }
  | { type: 'note'; text: string };

const DAY_MS = 86_400_000;
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** A date written out in UTC: "Friday 4 December 2026". */
export function formatDate(ms: number): string {
  const d = new Date(ms);
  return `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** The Message-ID of one queued message: every attempt at it carries the same one. */
export function messageIdFor(messageId: number, baseUrl: string): string {
  let host = 'vigil.invalid';
  try {
    host = new URL(baseUrl).hostname || host;
  } catch {}
  return `<vigil-msg-${messageId}@${host}>`;
}

/** Whole days left until the due date, counting a part day as a day (0 or less: past due). */
export function daysLeft(dueAt: number, now: number): number {
  return Math.ceil((dueAt - now) / DAY_MS);
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/** What the training is called in mail: its course titles ("A", "A and B", "A and 2 more courses"). */
export function trainingTitle(courses: readonly { title: string }[]): string {
  const [first, second] = courses;
  if (!first) return 'security training';
  if (!second) return first.title;
  if (courses.length === 2) return `${first.title} and ${second.title}`;
  return `${first.title} and ${courses.length - 1} more courses`;
}

function minutes(n: number): string {
  return n === 1 ? '1 minute' : `${n} minutes`;
}

function courseItems(data: MailData): string[] {
  return data.courses.map((c) => `${c.title} (about ${minutes(c.minutes)})`);
}

function totalMinutes(data: MailData): number {
  return data.courses.reduce((sum, c) => sum + c.minutes, 0);
}

function linkNote(data: MailData): Block {
  return {
    type: 'note',
    text:
      `This link is personal: it opens your training without a password, so please do not forward it. ` +
      `It works until ${formatDate(data.linkExpiresAt)}; after that, open it anyway and ask for a new one.`,
  };
}

function signature(data: MailData): Block {
  return {
    type: 'note',
    text: `Sent on behalf of ${data.accountName} by Vigil security training. If you have questions about this training, ask your IT or security team.`,
  };
}

function dueSentence(data: MailData): string {
  return data.dueAt === null ? '' : ` Please finish it by ${formatDate(data.dueAt)}.`;
}

function invitation(data: MailData): { subject: string; blocks: Block[] } {
  const count = data.courses.length;
  return {
    subject: `Your security training: ${trainingTitle(data.courses)}`,
    blocks: [
      { type: 'p', text: `Hello ${data.firstName},` },
      {
        type: 'p',
        text:
          `${data.accountName} has asked you to complete a short security-awareness training, ` +
          `"${trainingTitle(data.courses)}". It takes about ${minutes(totalMinutes(data))} in all, and you can ` +
          `stop and come back at any time: your progress is saved.${dueSentence(data)}`,
      },
      { type: 'p', text: count === 1 ? 'The course:' : `The ${count} courses:` },
      { type: 'list', items: courseItems(data) },
      {
        type: 'p',
        text: 'Each course has a few short lessons and a quiz at the end. Open your personal link to begin:',
      },
      { type: 'button', label: 'Start the training', url: data.link },
      linkNote(data),
      signature(data),
    ],
  };
}

function reminder(data: MailData): { subject: string; blocks: Block[] } {
  const left = data.dueAt === null ? null : daysLeft(data.dueAt, data.now);
  const due = data.dueAt === null ? '' : formatDate(data.dueAt);
  const subject =
    left === null
      ? `Reminder: ${trainingTitle(data.courses)}`
      : left > 1
        ? `Reminder: ${left} days left for ${trainingTitle(data.courses)}`
        : left === 1
          ? `Reminder: ${trainingTitle(data.courses)} is due tomorrow`
          : `Reminder: ${trainingTitle(data.courses)} is overdue`;
  const when =
    left === null
      ? 'is still waiting for you'
      : left > 1
        ? `is due in ${left} days, on ${due}`
        : left === 1
          ? `is due tomorrow, ${due}`
          : `was due on ${due}`;
  return {
    subject,
    blocks: [
      { type: 'p', text: `Hello ${data.firstName},` },
      {
        type: 'p',
        text:
          `A reminder from ${data.accountName}: your security training "${trainingTitle(data.courses)}" ${when}. ` +
          (data.started
            ? 'You have already made a start; pick up where you left off.'
            : `It takes about ${minutes(totalMinutes(data))} in all.`),
      },
      { type: 'list', items: courseItems(data) },
      {
        type: 'button',
        label: data.started ? 'Continue the training' : 'Start the training',
        url: data.link,
      },
      linkNote(data),
      signature(data),
    ],
  };
}

function newLink(data: MailData): { subject: string; blocks: Block[] } {
  return {
    subject: `Your new link for ${trainingTitle(data.courses)}`,
    blocks: [
      { type: 'p', text: `Hello ${data.firstName},` },
      {
        type: 'p',
        text: `Here is the new link you asked for to your security training "${trainingTitle(data.courses)}".${dueSentence(data)}`,
      },
      { type: 'button', label: 'Open the training', url: data.link },
      linkNote(data),
      {
        type: 'note',
        text: 'If you did not ask for a new link, you can ignore this email: the link only opens your own training.',
      },
      signature(data),
    ],
  };
}

function renderText(blocks: Block[]): string {
  return `${blocks
    .map((b) => {
      switch (b.type) {
        case 'list':
          return b.items.map((item) => `  - ${item}`).join('\n');
        case 'button':
          return `${b.label}:\n${b.url}`;
        default:
          return b.text;
      }
    })
    .join('\n\n')}\n`;
}

const FONT = "font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

/** The organisation's name, with its logo above it when it has one. */
function brandHtml(data: MailData): string {
  const logo = data.logoCid
    ? `<img src="cid:${escapeHtml(data.logoCid)}" alt="" height="40" style="display:block;height:40px;width:auto;max-width:240px;border:0;margin:0 0 8px">`
    : '';
  return `<div style="margin:0 0 16px">${logo}<div style="font-size:14px;font-weight:600;color:#52606d">${escapeHtml(data.accountName)}</div></div>`;
}

function renderHtml(subject: string, blocks: Block[], data: MailData): string {
  const body = blocks
    .map((b) => {
      switch (b.type) {
        case 'p':
          return `<p style="margin:0 0 16px">${escapeHtml(b.text)}</p>`;
        case 'list':
          return `<ul style="margin:0 0 16px;padding-left:20px">${b.items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul>`;
        case 'button': {
          const href = escapeHtml(b.url);
          return (
            `<p style="margin:24px 0"><a href="${href}" style="display:inline-block;background:#1d4ed8;color:#ffffff;` +
            `padding:12px 22px;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(b.label)}</a></p>` +
            `<p style="margin:0 0 16px;font-size:13px;color:#52606d">If the button does not work, copy this address ` +
            `into your browser:<br><a href="${href}" style="color:#1d4ed8;word-break:break-all">${href}</a></p>`
          );
        }
        default:
          return `<p style="margin:0 0 12px;font-size:13px;color:#52606d">${escapeHtml(b.text)}</p>`;
      }
    })
    .join('\n');
  return (
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(subject)}</title></head>\n` +
    `<body style="margin:0;padding:0;background:#f3f4f6">\n` +
    `<div style="max-width:560px;margin:0 auto;padding:24px 16px;${FONT};font-size:16px;line-height:1.5;color:#1f2933">\n` +
    `<div style="background:#ffffff;border-radius:8px;padding:24px">\n${brandHtml(data)}\n${body}\n</div>\n</div>\n</body></html>\n`
  );
}

/** Subject, plain text and HTML of one message. */
export function renderMail(data: MailData): RenderedMail {
  const clean: MailData = {
    ...data,
    firstName: oneLine(data.firstName),
    accountName: oneLine(data.accountName),
    courses: data.courses.map((c) => ({ title: oneLine(c.title), minutes: c.minutes })),
  };
  const { subject, blocks } =
    clean.kind === 'invitation'
      ? invitation(clean)
      : clean.kind === 'reminder'
        ? reminder(clean)
        : newLink(clean);
  return { subject, text: renderText(blocks), html: renderHtml(subject, blocks, clean) };
}
