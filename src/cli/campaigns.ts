import type { Command } from 'commander';
import { launchCampaign } from '../modules/training/campaigns/campaigns.launch.commands.js';
import { presentCampaign } from '../modules/training/campaigns/campaigns.presenter.js';
import { createCampaign } from '../modules/training/campaigns/campaigns.service.js';
import { bodyOption } from './body-options.js';
import { launchCommand, withAccount } from './campaign-commands.js';
import { type CliContext, collect, idOption, print } from './output.js';

export function campaignCommands(program: Command, ctx: CliContext): void {
  const campaign = program.command('campaign').description('training campaigns');

  campaign
    .command('create')
    .description('create a training campaign (starts as draft)')
    .requiredOption('--account <id>', 'account id')
    .addOption(bodyOption('--name <name>', 'campaign name', 'name').makeOptionMandatory())
    .addOption(bodyOption('--description <text>', 'what the campaign is for', 'description'))
    .addOption(bodyOption('--group <id>', 'target group id (repeatable)', 'group_ids').argParser(collect))
    .addOption(
      bodyOption(
        '--course <key>',
        'course key, e.g. phishing or custom-3 (repeatable)',
        'course_keys',
      ).argParser(collect),
    )
    .addOption(bodyOption('--start-date <iso>', 'when to launch by itself once scheduled', 'start_date'))
    .addOption(bodyOption('--due-date <iso>', 'when the training is due, e.g. 2026-12-15', 'due_date'))
    .option('--json', 'print JSON')
    .action(
      async (opts: {
        account: string;
        name: string;
        description?: string;
        group?: string[];
        course?: string[];
        startDate?: string;
        dueDate?: string;
        json?: boolean;
      }) => {
        const accountId = idOption('account', opts.account);
        const created = await createCampaign(await ctx.db(), accountId, {
          name: opts.name,
          description: opts.description,
          group_ids: (opts.group ?? []).map((g) => idOption('group', g)),
          course_keys: opts.course,
          start_date: opts.startDate,
          due_date: opts.dueDate,
        });
        const shown = withAccount(created, presentCampaign);
        print(
          ctx,
          opts.json,
          shown,
          () => `created training campaign ${shown.id} "${shown.name}" (${shown.status})`,
        );
      },
    );

  launchCommand(campaign, ctx, {
    description:
      'launch a draft or scheduled campaign now: enroll the target groups and queue the invitations',
    launch: launchCampaign,
    present: presentCampaign,
    summary: (shown) =>
      `launched training campaign ${shown.id} "${shown.name}": ${shown.enrolled_count} enrolled`,
  });
}
