import type { Command } from 'commander';
import { ConfigError, loadConfig } from '../core/config.js';
import { presentAccount } from '../modules/access/accounts/accounts.presenter.js';
import { createAccount, getAccount, listAllAccounts } from '../modules/access/accounts/accounts.service.js';
import { changeSecuritySettings } from '../modules/access/security/security.service.js';
import { reportingAddressOf } from '../modules/phishing/mailbox/mailbox.service.js';
import { bodyOption } from './body-options.js';
import {
  type CliContext,
  idOption,
  type PageOpts,
  pageOptions,
  pageWindow,
  print,
  printPage,
} from './output.js';

export function accountCommands(program: Command, ctx: CliContext): void {
  const account = program.command('account').description('customer accounts');

  account
    .command('create')
    .description('create a customer account')
    .addOption(bodyOption('--name <name>', 'account name', 'name').makeOptionMandatory())
    .option('--json', 'print JSON')
    .action(async (opts: { name: string; json?: boolean }) => {
      const created = presentAccount(
        await createAccount(await ctx.db({ create: true }), { name: opts.name }),
      );
      print(ctx, opts.json, created, () => `created account ${created.id} "${created.name}"`);
    });

  pageOptions(account.command('list').description('list customer accounts, by name'))
    .option('--json', 'print JSON')
    .action(async (opts: PageOpts) => {
      const window = pageWindow(opts);
      const page = await listAllAccounts(await ctx.db(), undefined, window);
      printPage(ctx, opts, window, page, presentAccount, {
        item: (a) => `${a.id}\t${a.name}`,
        noun: ['account', 'accounts'],
        empty: 'no accounts yet',
      });
    });

  account
    .command('reporting-address')
    .description(
      "print the account's reporting address (report+<reporting id>@REPORT_DOMAIN), where its reporting mailbox and employees forward suspicious mail",
    )
    .requiredOption('--account <id>', 'account id')
    .option('--json', 'print JSON')
    .action(async (opts: { account: string; json?: boolean }) => {
      const accountId = idOption('account', opts.account);
      const { domain } = loadConfig(ctx.io.env).reports;
      if (domain === undefined) {
        throw new ConfigError(
          'REPORT_DOMAIN is not set: the reporting address is report+<reporting id>@REPORT_DOMAIN (see docs/reporting-address.md)',
        );
      }
      const db = await ctx.db();
      await getAccount(db, accountId);
      const address = (await reportingAddressOf(db, accountId, domain)) as string;
      print(ctx, opts.json, { address }, () => address);
    });

  account
    .command('sso-only-off')
    .description(
      'let administrators sign in with their password again when the account\'s identity provider is unreachable: turns "SSO only" off (recorded in the audit log; an owner turns it back on)',
    )
    .requiredOption('--account <id>', 'account id')
    .option('--json', 'print JSON')
    .action(async (opts: { account: string; json?: boolean }) => {
      const accountId = idOption('account', opts.account);
      const db = await ctx.db();
      const settings = await db
        .transaction()
        .execute((trx) => changeSecuritySettings(trx, accountId, { sso_only: false }));
      print(
        ctx,
        opts.json,
        { account_id: accountId, sso_only: settings.sso_only, require_mfa: settings.require_mfa },
        () =>
          `account ${accountId}: SSO only is off; its administrators may sign in with their password${settings.require_mfa ? ' and a second step' : ''}`,
      );
    });
}
