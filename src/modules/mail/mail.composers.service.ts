import type { Db } from '../../core/db/database.js';
import type { MessageKind } from '../../core/db/schema.js';
import type { OutgoingMail } from './mail.transport.service.js';

/**
 * The composer registry: mail knows how to queue, send and record messages, not what any of them
 * says. Each owner registers a composer for its message kinds (training its invitations,
 * reminders and links, phishing its simulations) in src/subscriptions.ts; the mail worker
 * composes each claimed message with its kind's composer, and the admin outbox shows a message's
 * body through it.
 */

/** One claimed message, as a composer sees it. */
export interface MailToCompose {
  id: number;
  accountId: number;
  kind: MessageKind;
}

export interface ComposeOptions {
  /** Where learners reach the server: the personal links start with it. */
  baseUrl: string;
  from: string;
  linkTtlMs: number;
  now: () => number;
  /** Where simulations' links and tracking images point: PHISH_URL, else `baseUrl`. */
  phishBaseUrl?: string;
}

/** What a composer made of one batch's messages of its kinds. */
export interface ComposedMail {
  /** The mail to send, or why it will not be sent (it is then cancelled). */
  compose(message: MailToCompose): OutgoingMail | string;
  /**
   * The owner's own record of the outcome (a simulation's step), after the message's record. A
   * failure is logged by the worker and never undoes the send.
   */
  recordOutcome?(message: MailToCompose, outcome: 'sent' | 'failed', at: number): Promise<void>;
}

/** What the admin outbox shows of a message beyond its record, as its owner composes it. */
export interface MessageDescription {
  /** The owner's campaign, when the message's record names none (a simulation's). */
  campaign?: { id: number; name: string };
  /** The From the message is (or was) sent with. */
  from?: string;
  /** The owner's own headers the message carries (a simulation's `X-Vigil-Simulation`). */
  headers?: Record<string, string>;
}

/** An image a message shows by `cid:`, as the outbox's preview shows it. */
export interface PreviewImage {
  cid: string;
  dataUrl: string;
}

/** The images a message of this kind may show inline, for the outbox's preview (none for most kinds). */
export async function inlineImagesOf(db: Db, accountId: number, kind: MessageKind): Promise<PreviewImage[]> {
  return (await composers.get(kind)?.inlineImages?.(db, accountId)) ?? [];
}

/** What describing a message needs of the sending options. */
export type DescribeOptions = Pick<ComposeOptions, 'baseUrl' | 'from' | 'phishBaseUrl'>;

export interface MailComposer {
  /**
   * Reads, at send time, everything these claimed messages (of any accounts: the claims come
   * from the one queue of every account) are made of, and returns how to compose each.
   */
  prepare(db: Db, messages: MailToCompose[], options: ComposeOptions): Promise<ComposedMail>;
  /** The sent HTML as the admin outbox shows it (without what only the recipient should load). */
  shownHtml?(html: string): string;
  /**
   * For the admin outbox's preview, which has no attachments: the images this account's
   * messages of the kind show inline (`cid:`), each as a `data:` URL. An image a message
   * carried that is no longer among them (a logo since replaced) is not shown.
   */
  inlineImages?(db: Db, accountId: number): Promise<PreviewImage[]>;
  /**
   * For the admin outbox: what these messages of the account are, as `prepare` would compose
   * them (its campaign, From and own headers). Without it a message's From is the `from` option.
   */
  describe?(
    db: Db,
    accountId: number,
    messageIds: number[],
    options: DescribeOptions,
  ): Promise<Map<number, MessageDescription>>;
}

const composers = new Map<MessageKind, MailComposer>();

/** Registers the composer of a message kind (again with the same composer: nothing changes). */
export function registerMailComposer(kind: MessageKind, composer: MailComposer): void {
  const known = composers.get(kind);
  if (known && known !== composer) throw new Error(`a mail composer is already registered for ${kind}`);
  composers.set(kind, composer);
}

/** The composer of a message kind, if one is registered. */
export function mailComposerOf(kind: MessageKind): MailComposer | undefined {
  return composers.get(kind);
}

function composerFor(kind: MessageKind): MailComposer {
  const composer = composers.get(kind);
  if (!composer) throw new Error(`no mail composer is registered for messages of kind ${kind}`);
  return composer;
}

/**
 * How to compose these claimed messages: each kind's composer prepares its own messages (one
 * composer serving several kinds prepares them together). A kind without a composer is an error
 * of the wiring: the batch fails and its claims run out, to be tried again.
 */
export async function composeMessages(
  db: Db,
  messages: MailToCompose[],
  options: ComposeOptions,
): Promise<Required<ComposedMail>> {
  const byComposer = new Map<MailComposer, MailToCompose[]>();
  for (const message of messages) {
    const composer = composerFor(message.kind);
    byComposer.set(composer, [...(byComposer.get(composer) ?? []), message]);
  }
  const prepared = new Map<MailComposer, ComposedMail>();
  for (const [composer, own] of byComposer) prepared.set(composer, await composer.prepare(db, own, options));
  const of = (message: MailToCompose) => prepared.get(composerFor(message.kind)) as ComposedMail;
  return {
    compose: (message) => of(message).compose(message),
    recordOutcome: async (message, outcome, at) => {
      await of(message).recordOutcome?.(message, outcome, at);
    },
  };
}

/**
 * What the outbox shows of these messages of an account beyond their records: each kind's
 * composer describes its own; a message no composer describes is sent from the `from` option.
 */
export async function describeMessages(
  db: Db,
  accountId: number,
  messages: { id: number; kind: MessageKind }[],
  options: DescribeOptions,
): Promise<Map<number, MessageDescription>> {
  const byComposer = new Map<MailComposer, number[]>();
  for (const message of messages) {
    const composer = composers.get(message.kind);
    if (composer?.describe) byComposer.set(composer, [...(byComposer.get(composer) ?? []), message.id]);
  }
  const described = new Map<number, MessageDescription>();
  for (const [composer, ids] of byComposer) {
    for (const [id, description] of (await composer.describe?.(db, accountId, ids, options)) ?? []) {
      described.set(id, description);
    }
  }
  return new Map(
    messages.map((m) => {
      const description = described.get(m.id) ?? {};
      return [m.id, { ...description, from: description.from ?? options.from }];
    }),
  );
}
