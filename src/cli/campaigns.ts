import type { Command } from 'commander';
import { presentCampaign } from '../modules/campaigns/campaigns.presenter.js';
import { createCampaign } from '../modules/campaigns/campaigns.service.js';
import { type CliContext, collect, idOption, print } from './output.js';

export function campaignCommands(program: Command, ctx: CliContext): void {
  const campaign = program.command('campaign').description('training campaigns');

  campaign
    .command('create')
    .description('create a training campaign (starts as draft)')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--name <name>', 'campaign name')
    .option('--group <id>', 'target group id (repeatable)', collect)
    .option('--json', 'print JSON')
    .action(async (opts: { account: string; name: string; group?: string[]; json?: boolean }) => {
      const accountId = idOption('account', opts.account);
      const groupIds = (opts.group ?? []).map((g) => idOption('group', g));
      const created = await createCampaign(await ctx.db(), accountId, { name: opts.name, groupIds });
      const shown = { ...presentCampaign(created), account_id: created.account_id };
      print(
        ctx.io,
        opts.json,
        shown,
        () => `created training campaign ${shown.id} "${shown.name}" (${shown.status})`,
      );
    });
}
