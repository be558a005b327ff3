import type { Command } from 'commander';
import { pino } from 'pino';
import { loadConfig } from '../core/config.js';
import { createLogger } from '../core/http/logging.js';
import { startReportsByMail } from '../modules/phishing/mailbox/mailbox.intake.service.js';
import { linkBase } from '../startup.js';
import { startBackgroundWork } from '../workers/background.js';
import type { CliContext } from './output.js';

/** Resolves with the first SIGTERM or SIGINT. */
function untilStopped(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      resolve(signal);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
}

export function workerCommands(program: Command, ctx: CliContext): void {
  program
    .command('worker')
    .description(
      'run the background work (scheduled launches, reminders, the mail queue, and the reporting address when REPORT_SMTP_PORT is set) without HTTP, until SIGTERM or SIGINT',
    )
    .action(async () => {
      const config = loadConfig(ctx.io.env);
      // The server's log rules (credentials redacted), written at once as before.
      const log = createLogger(config.logLevel, pino.destination(1));
      // Like a server, it may be the first to reach a new database (the migrations take a lock).
      // Its output is its JSON log, which names the database.
      const db = await ctx.db({ create: true, announce: false });
      log.info({ database: ctx.database(), migrations: ctx.applied() }, 'background work on this database');
      const baseUrl = linkBase(config);
      if (!config.publicUrl) {
        log.warn({ base_url: baseUrl }, 'PUBLIC_URL is not set: links in the mail point to this address');
      }
      const work = startBackgroundWork({ db, config, baseUrl, log });
      const reports = await startReportsByMail({ config, db, log, baseUrl });
      const signal = await untilStopped();
      log.info({ signal }, 'stopping the background work');
      await Promise.all([work.stop(), reports?.close()]);
    });
}
