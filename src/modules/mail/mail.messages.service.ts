import { recordAudit } from '../../core/audit/audit.js';
import type { Db } from '../../core/db/database.js';
import type { GroupScope } from '../../core/db/group-scope.js';
import type { MessageStatus } from '../../core/db/schema.js';
import { AppError } from '../../core/errors.js';
import { type ListPage, type ListWindow, readList } from '../../core/pagination.js';
import {
  countByStatus,
  countMessages,
  countQueueOfAllAccounts,
  findMessage,
  listMessages,
  type MessageDetailRow,
  type MessageFilter,
  type MessageRow,
  requeueFailed,
} from './mail.messages.repository.js';

export const MESSAGE_STATUSES: readonly MessageStatus[] = [
  'queued',
  'sending',
  'sent',
  'failed',
  'cancelled',
];

export const messageNotFound = () => new AppError('message_not_found');

export function listMessagesPage(
  db: Db,
  accountId: number,
  filter: MessageFilter,
  window: ListWindow,
): Promise<ListPage<MessageRow>> {
  return readList(
    window,
    () => countMessages(db, accountId, filter),
    (limit, offset) => listMessages(db, accountId, filter, limit, offset),
  );
}

export async function getMessage(db: Db, accountId: number, messageId: number): Promise<MessageDetailRow> {
  const row = await findMessage(db, accountId, messageId);
  if (!row) throw messageNotFound();
  return row;
}

/** Every status with its count (zero included); of a role's groups' people, when it is limited to some. */
export async function messageCounts(
  db: Db,
  accountId: number,
  groups: GroupScope = null,
): Promise<Record<MessageStatus, number>> {
  const counts = await countByStatus(db, accountId, groups);
  return Object.fromEntries(MESSAGE_STATUSES.map((s) => [s, counts.get(s) ?? 0])) as Record<
    MessageStatus,
    number
  >;
}

/** Operator-wide: the mail queue's depth over every account (monitoring): waiting or being sent, and failed. */
export function mailQueueDepthOfAllAccounts(db: Db): Promise<{ pending: number; failed: number }> {
  return countQueueOfAllAccounts(db);
}

/** Puts a failed message back in the queue; the workers send it as soon as the send rate allows. */
export async function retryMessage(db: Db, accountId: number, messageId: number): Promise<MessageDetailRow> {
  const message = await getMessage(db, accountId, messageId);
  if (message.status !== 'failed') throw new AppError('message_not_failed');
  await db.transaction().execute(async (trx) => {
    if (!(await requeueFailed(trx, accountId, message.id, Date.now()))) {
      throw new AppError('message_not_failed');
    }
    await recordAudit(trx, {
      accountId,
      action: 'message.retried',
      object: { type: 'message', id: message.id, label: message.kind },
      changes: { status: { from: 'failed', to: 'queued' } },
    });
  });
  return getMessage(db, accountId, message.id);
}
