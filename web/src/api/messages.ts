// The mail queue: invitations and reminders, sent or kept in the outbox (docs/admin-api.md § Outbox).
import { type ListPage, type ListParams, request } from './client';

export type MessageStatus = 'queued' | 'sending' | 'sent' | 'failed' | 'cancelled';

export const MESSAGE_STATUSES: MessageStatus[] = ['queued', 'sending', 'sent', 'failed', 'cancelled'];

export interface Message {
  id: number;
  kind: 'invitation' | 'reminder' | 'link';
  status: MessageStatus;
  /** Where it went, or until it is sent where it will go (null when the employee is gone). */
  to_address: string | null;
  /** Written when the message is sent: null before. */
  subject: string | null;
  campaign: { id: number; name: string } | null;
  employee: { id: number; first_name: string; last_name: string; email: string } | null;
  attempts: number;
  /**
   * Earlier attempts handed to the mail server whose answer was never recorded (a worker
   * stopped, a connection was lost after the message): above 0, the message may have arrived
   * more than once, every copy with the same Message-ID.
   */
  attempts_in_doubt: number;
  last_error: string | null;
  /** How it was (or will be) delivered: "smtp" or "outbox". */
  transport: string | null;
  created_at: string;
  sent_at: string | null;
  next_attempt_at: string | null;
}

/** The message with what was sent (the bodies are null until it is). */
export interface MessageDetail extends Message {
  body_text: string | null;
  body_html: string | null;
}

/** "Invitation to Ann Lee": what a message is called before its subject is written. */
export function messageTitle(m: Message): string {
  if (m.subject) return m.subject;
  const kind = { invitation: 'Invitation', reminder: 'Reminder', link: 'New link' }[m.kind] ?? 'Message';
  return m.employee ? `${kind} to ${m.employee.first_name} ${m.employee.last_name}` : kind;
}

export interface MailSummary {
  /** "smtp": sent through SMTP_URL; "outbox": no SMTP server, messages are kept here. */
  transport: 'smtp' | 'outbox';
  counts: Record<MessageStatus, number>;
}

export interface MessageListParams extends Omit<ListParams, 'search'> {
  status?: MessageStatus | '';
  campaign_id?: number;
}

const base = (accountId: number) => `/accounts/${accountId}/messages`;

export function listMessages(accountId: number, params: MessageListParams, signal?: AbortSignal) {
  return request<ListPage<Message>>(base(accountId), { query: { ...params }, ...(signal ? { signal } : {}) });
}

export function getMailSummary(accountId: number): Promise<MailSummary> {
  return request(`${base(accountId)}/summary`);
}

export function getMessage(accountId: number, messageId: number): Promise<MessageDetail> {
  return request(`${base(accountId)}/${messageId}`);
}

export function retryMessage(accountId: number, messageId: number): Promise<Message> {
  return request(`${base(accountId)}/${messageId}/retry`, { method: 'POST' });
}
