import type { Config } from '../core/config.js';
import type { Db } from '../core/db/database.js';
import { createMailTransport } from '../modules/mail/mail.transport.service.js';
import { loadSubscriptions } from '../subscriptions.js';
import { MailWorker, type WorkerLog } from './mail-worker.js';
import { startScheduler } from './scheduler.js';
import { WebhookWorker } from './webhook-worker.js';

export interface BackgroundWork {
  /** Stops the scheduler, the mail and webhook workers (sends under way finish), then closes SMTP connections. */
  stop(): Promise<void>;
}

/**
 * The background work of one instance: the scheduler (launches, reminders), the mail worker and
 * the webhook worker.
 * The server runs it beside HTTP; `vigil worker` runs it alone.
 */
export function startBackgroundWork(options: {
  db: Db;
  config: Config;
  /** Where learners reach the server, for the links in the mail. */
  baseUrl: string;
  log: WorkerLog;
}): BackgroundWork {
  loadSubscriptions(); // the work it runs emits events (launches, reminders, overdue marks)
  const { db, config, baseUrl, log } = options;
  const { mail } = config;
  const transport = createMailTransport({
    smtpUrl: mail.smtpUrl,
    concurrency: mail.concurrency,
    // Within half the lease: the worker starts sends only in a claim's first half.
    timeoutMs: Math.floor(mail.leaseMs / 2),
  });
  const worker = new MailWorker({
    db,
    transport,
    baseUrl,
    phishBaseUrl: config.phishUrl ?? baseUrl,
    ...mail,
    linkTtlMs: config.learner.linkTtlMs,
    log,
  });
  worker.start();
  const webhooks = new WebhookWorker({ db, log, ...config.webhooks });
  webhooks.start();
  const scheduler = startScheduler({
    db,
    intervalMs: config.workers.schedulerIntervalMs,
    log,
    instance: { config, baseUrl },
    onQueued: () => worker.wake(),
    onWebhooks: () => webhooks.wake(),
  });
  log.info(
    { transport: transport.kind, rate_per_minute: mail.ratePerMinute, concurrency: mail.concurrency },
    'background work started: scheduler, mail worker and webhook worker',
  );
  return {
    async stop() {
      await scheduler.stop();
      await Promise.all([worker.stop(), webhooks.stop()]);
      await transport.close();
    },
  };
}
