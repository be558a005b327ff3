import type { Command } from 'commander';
import { getAccount } from '../modules/accounts/accounts.service.js';
import { createGroup } from '../modules/groups/groups.service.js';
import { iso } from '../time.js';
import { type CliContext, idOption, print } from './output.js';

export function groupCommands(program: Command, ctx: CliContext): void {
  const group = program.command('group').description('groups of employees');

  group
    .command('create')
    .description('create an empty group (its members are set through the API)')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--name <name>', 'group name')
    .option('--description <text>', 'description', '')
    .option('--json', 'print JSON')
    .action(async (opts: { account: string; name: string; description: string; json?: boolean }) => {
      const db = await ctx.db();
      const accountId = idOption('account', opts.account);
      await getAccount(db, accountId);
      const g = await createGroup(db, accountId, { name: opts.name, description: opts.description });
      const shown = {
        id: g.id,
        account_id: g.account_id,
        name: g.name,
        description: g.description,
        employee_count: g.employee_count,
        created_at: iso(g.created_at),
        updated_at: iso(g.updated_at),
      };
      print(
        ctx.io,
        opts.json,
        shown,
        () => `created group ${shown.id} "${shown.name}" in account ${shown.account_id}`,
      );
    });
}
