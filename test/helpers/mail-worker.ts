import type { Db } from '../../src/core/db/database.js';
import { manualClock } from '../../src/core/outbox/clock.js';
import { smtpTransport } from '../../src/modules/mail/mail.transport.service.js';
import { MailWorker } from '../../src/workers/mail-worker.js';
import { afterFile } from './cleanup.js';
import type { TestSmtpServer } from './smtp.js';

const DAY = 86_400_000;
const QUIET = { info() {}, warn() {}, error() {} };

export interface TestMailWorkerOptions {
  /** The moment the worker believes it is (a manual clock): what is due by then is sent. */
  now: number;
  /** Messages sent at once, and the SMTP connections for them (default 1). */
  concurrency?: number;
  /** PUBLIC_URL, PHISH_URL and MAIL_FROM as the server would have them. */
  baseUrl?: string;
  phishBaseUrl?: string;
  from?: string;
}

/**
 * The mail worker as `vigil worker` runs it, sending to the test's SMTP server (a real one,
 * helpers/smtp.ts) at the moment `now`: no rate limit to wait for, three attempts a minute
 * apart, learner links valid for 30 days. Its SMTP connections close after the file.
 */
export function mailWorkerTo(
  db: Db,
  smtp: TestSmtpServer,
  {
    now,
    concurrency = 1,
    baseUrl = 'https://vigil.example.com',
    phishBaseUrl = 'https://phish.example.net',
    from = 'Training <training@vigil.example.com>',
  }: TestMailWorkerOptions,
): MailWorker {
  const transport = smtpTransport({ smtpUrl: smtp.url, concurrency, timeoutMs: 5000 });
  afterFile(() => transport.close());
  return new MailWorker({
    db,
    transport,
    baseUrl,
    phishBaseUrl,
    from,
    ratePerMinute: 1_000_000,
    concurrency,
    maxAttempts: 3,
    retryBaseMs: 60_000,
    leaseMs: 120_000,
    linkTtlMs: 30 * DAY,
    log: QUIET,
    clock: manualClock(now),
  });
}
