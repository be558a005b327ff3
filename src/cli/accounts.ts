import type { Command } from 'commander';
import { presentAccount } from '../modules/accounts/accounts.presenter.js';
import { allAccounts, createAccount } from '../modules/accounts/accounts.service.js';
import { type CliContext, print } from './output.js';

export function accountCommands(program: Command, ctx: CliContext): void {
  const account = program.command('account').description('customer accounts');

  account
    .command('create')
    .description('create a customer account')
    .requiredOption('--name <name>', 'account name')
    .option('--json', 'print JSON')
    .action(async (opts: { name: string; json?: boolean }) => {
      const created = presentAccount(
        await createAccount(await ctx.db({ create: true }), { name: opts.name }),
      );
      print(ctx, opts.json, created, () => `created account ${created.id} "${created.name}"`);
    });

  account
    .command('list')
    .description('list customer accounts')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const accounts = (await allAccounts(await ctx.db())).map(presentAccount);
      print(ctx, opts.json, { accounts }, () =>
        accounts.length ? accounts.map((a) => `${a.id}\t${a.name}`).join('\n') : 'no accounts yet',
      );
    });
}
