import type { Command } from 'commander';
import { presentAccount } from '../modules/access/accounts/accounts.presenter.js';
import { createAccount, listAllAccounts } from '../modules/access/accounts/accounts.service.js';
import { bodyOption } from './body-options.js';
import { type CliContext, type PageOpts, pageOptions, pageWindow, print, printPage } from './output.js';

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
}
