import type { Command } from 'commander';
import { presentGroupRecord } from '../modules/directory/groups/groups.presenter.js';
import { createGroup } from '../modules/directory/groups/groups.service.js';
import { bodyOption } from './body-options.js';
import { type CliContext, idOption, print } from './output.js';

export function groupCommands(program: Command, ctx: CliContext): void {
  const group = program.command('group').description('groups of employees');

  group
    .command('create')
    .description('create an empty group (its members are set through the API)')
    .requiredOption('--account <id>', 'account id')
    .addOption(bodyOption('--name <name>', 'group name', 'name').makeOptionMandatory())
    .addOption(bodyOption('--description <text>', 'description', 'description').default(''))
    .option('--json', 'print JSON')
    .action(async (opts: { account: string; name: string; description: string; json?: boolean }) => {
      const accountId = idOption('account', opts.account);
      const shown = presentGroupRecord(
        await createGroup(await ctx.db(), accountId, { name: opts.name, description: opts.description }),
      );
      print(
        ctx,
        opts.json,
        shown,
        () => `created group ${shown.id} "${shown.name}" in account ${shown.account_id}`,
      );
    });
}
