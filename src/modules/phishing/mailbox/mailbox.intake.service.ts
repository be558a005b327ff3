import type { FastifyBaseLogger } from 'fastify';
import { createRateLimiter } from '../../../core/auth/rate-limit.js';
import type { Config } from '../../../core/config.js';
import type { Db } from '../../../core/db/database.js';
import { SharedRedis } from '../../../core/redis.js';
import { type ReportIntake, receiveReport } from '../reports/reports.intake.service.js';
import { createReportedMessageReader } from '../reports/reports.reader.service.js';
import { createStepMachine } from '../tracking/tracking.steps.batch.commands.js';
import { type ReportingListener, startReportingListener } from './mailbox.listener.service.js';
import { accountOfReportingId } from './mailbox.service.js';

/**
 * Where the reporting address runs: in the process that serves HTTP alone (with its app's
 * intake), or, without an app, in a cluster's primary or `vigil worker`, with an intake of its
 * own made here as the app makes one (reading threads started on the first report, the reporter
 * budgets in Redis when REDIS_URL is set).
 */

export interface ReportsByMail {
  port: number;
  /** Stops the listener (a message under way finishes), then what it made for itself. */
  close(): Promise<void>;
}

/**
 * Starts the reporting address when this process's settings say so (REPORT_SMTP_PORT), else
 * returns null. `intake` is the app's; without one (no app in this process) one is made, with
 * `baseUrl` as where simulations' links point when PHISH_URL and PUBLIC_URL are unset.
 */
export async function startReportsByMail(options: {
  config: Config;
  db: Db;
  log: FastifyBaseLogger;
  intake?: ReportIntake;
  baseUrl?: string;
}): Promise<ReportsByMail | null> {
  const { config, db, log } = options;
  const { smtp, domain } = config.reports;
  if (!smtp || domain === undefined) return null;
  const own = options.intake ? undefined : ownIntake(config, db, log, options.baseUrl ?? '');
  const intake = (options.intake ?? own?.intake) as ReportIntake;
  let listener: ReportingListener;
  try {
    listener = await startReportingListener({
      settings: smtp,
      domain,
      resolveAccount: (reportingId) => accountOfReportingId(db, reportingId),
      receive: (report) => receiveReport(intake, report),
      log,
    });
  } catch (err) {
    await own?.close();
    throw err;
  }
  return {
    port: listener.port,
    async close() {
      await listener.close();
      await own?.close();
    },
  };
}

function ownIntake(config: Config, db: Db, log: FastifyBaseLogger, baseUrl: string) {
  const redis = config.redisUrl
    ? new SharedRedis(config.redisUrl, { timeoutMs: config.redisTimeoutMs, log })
    : undefined;
  const reader = createReportedMessageReader({ timeLimitMs: config.reports.readTimeoutMs, log });
  const publicUrl = config.publicUrl ?? baseUrl;
  const intake: ReportIntake = {
    db,
    machine: createStepMachine(),
    reader,
    phishUrls: () => [config.phishUrl ?? publicUrl, publicUrl],
    reporterLimiter: createRateLimiter({
      keyPrefix: `${config.rateLimit.keyPrefix}:reporter`,
      redis,
      windowSeconds: 60 * 60,
    }),
  };
  return {
    intake,
    async close() {
      await reader.close();
      await redis?.close();
    },
  };
}
