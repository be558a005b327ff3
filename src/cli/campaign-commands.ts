import type { Command } from 'commander';
import type { Db } from '../core/db/database.js';
import { type CliContext, idOption, print } from './output.js';

/** A campaign as a command shows it: as the admin API presents it, with the account it belongs to. */
export function withAccount<R extends { account_id: number }, S>(row: R, present: (row: R) => S) {
  return { ...present(row), account_id: row.account_id };
}

/** What differs between `campaign launch` and `phishing launch`. */
interface LaunchCommand<R extends { account_id: number }, S> {
  description: string;
  /** The launch command function, as the admin API's `POST …/launch` calls it. */
  launch: (db: Db, props: { accountId: number; campaignId: number; trigger: 'now' }) => Promise<R>;
  present: (row: R) => S;
  /** The line printed without --json. */
  summary: (shown: S & { account_id: number }) => string;
}

/** `launch --account <id> --id <id> [--json]` under `parent`: launches the account's draft or scheduled campaign now. */
export function launchCommand<R extends { account_id: number }, S>(
  parent: Command,
  ctx: CliContext,
  spec: LaunchCommand<R, S>,
): void {
  parent
    .command('launch')
    .description(spec.description)
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--id <id>', 'campaign id')
    .option('--json', 'print JSON')
    .action(async (opts: { account: string; id: string; json?: boolean }) => {
      const accountId = idOption('account', opts.account);
      const launched = await spec.launch(await ctx.db(), {
        accountId,
        campaignId: idOption('id', opts.id),
        trigger: 'now',
      });
      const shown = withAccount(launched, spec.present);
      print(ctx, opts.json, shown, () => spec.summary(shown));
    });
}
