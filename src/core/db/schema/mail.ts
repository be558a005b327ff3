import type { Generated } from 'kysely';

/** The tables of the durable mail queue. */

export type MessageKind =
  | 'invitation'
  | 'reminder'
  | 'link'
  | 'simulation'
  | 'report_feedback'
  | 'report_thanks'
  /** A test send of Phishing settings (phishing_test_sends.message_id, migration 0022). */
  | 'simulation_test';

export type MessageStatus = 'queued' | 'sending' | 'sent' | 'failed' | 'cancelled';

/** The durable mail queue; sent messages stay as the record (and the outbox without SMTP). */
export interface MessagesTable {
  id: Generated<number>;
  account_id: number;
  campaign_id: number | null;
  enrollment_id: number | null;
  kind: MessageKind;
  round: Generated<number>;
  status: MessageStatus;
  attempts: Generated<number>;
  /** MAIL_PRIORITY (mail.queue.commands.ts): 0 someone is waiting for it, 1 bulk; workers claim 0 first. */
  priority: Generated<number>;
  next_attempt_at: number;
  /** A worker's claim on a `sending` message; an expired claim is taken over. */
  locked_until: number | null;
  /**
   * When the current attempt handed the message over for delivery (over SMTP: its last byte
   * written, the final "." of DATA about to go); cleared once the outcome is recorded. Still set
   * on a `sending` message whose claim ran out: that attempt may have been delivered.
   */
  handed_over_at: number | null;
  /** Attempts whose outcome was never learned (see handed_over_at); the message went out again. */
  attempts_in_doubt: Generated<number>;
  last_error: string | null;
  transport: 'smtp' | 'outbox' | null;
  to_address: string | null;
  subject: string | null;
  body_text: string | null;
  body_html: string | null;
  message_id: string | null;
  created_at: number;
  sent_at: number | null;
  /** A simulation's recipient (kind `simulation`, migration 0009): at most one message each. */
  phishing_recipient_id: number | null;
  /** A reporter's feedback on a verdict (kind `report_feedback`, migration 0021). */
  report_reporter_id: number | null;
}

export interface MailTables {
  messages: MessagesTable;
}
