import type { Command } from 'commander';
import { presentAdminPhishingCampaign } from '../modules/phishing/phishing.campaigns.presenter.js';
import {
  createPhishingCampaign,
  listPhishingCampaignsPage,
} from '../modules/phishing/phishing.campaigns.service.js';
import { launchPhishingCampaign } from '../modules/phishing/phishing.launch.js';
import { launchCommand, withAccount } from './campaign-commands.js';
import {
  type CliContext,
  collect,
  idOption,
  type PageOpts,
  pageOptions,
  pageWindow,
  print,
  printPage,
} from './output.js';

/**
 * `vigil phishing create|launch|list`: phishing simulations from the command line.
 *
 *   vigil phishing create --account 1 --name "Q4 test" --group 3 --template builtin:invoice-final-notice \
 *     --window-start 2026-12-01T08:00:00Z --window-end 2026-12-12T17:00:00Z --weekdays mon,tue,wed,thu,fri \
 *     --hours 9-17 --time-zone Europe/Berlin [--course phishing] [--landing teach_on_submit] [--json]
 *   vigil phishing launch --account 1 --id 5 [--json]
 *   vigil phishing list --account 1 [--status running] [--json]
 */
export function phishingCommands(program: Command, ctx: CliContext): void {
  const phishing = program.command('phishing').description('phishing simulation campaigns');

  phishing
    .command('create')
    .description('create a phishing campaign (starts as draft)')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--name <name>', 'campaign name')
    .option('--description <text>', 'what the campaign is for')
    .option('--group <id>', 'target group id (repeatable)', collect)
    .option('--template <key>', 'template key, builtin:<slug> or custom:<id> (repeatable: a pool)', collect)
    .option('--course <key>', 'remedial course key (repeatable)', collect)
    .option('--window-start <iso>', 'first moment mail may go, e.g. 2026-12-01T08:00:00Z')
    .option('--window-end <iso>', 'last moment mail may go')
    .option('--weekdays <list>', 'days mail may go, e.g. mon,tue,wed,thu,fri')
    .option('--hours <from-to>', 'sending hours in the time zone, e.g. 9-17')
    .option('--time-zone <zone>', 'IANA time zone, e.g. Europe/Berlin')
    .option('--landing <mode>', 'teach_on_click or teach_on_submit')
    .option('--remedial-on <step>', 'click or submit: when a person has failed')
    .option('--grace-hours <n>', 'hours after the window during which results still count')
    .option('--sender-domain <host>', 'domain of the sender address (default: the host of PHISH_URL)')
    .option('--json', 'print JSON')
    .action(
      async (opts: {
        account: string;
        name: string;
        description?: string;
        group?: string[];
        template?: string[];
        course?: string[];
        windowStart?: string;
        windowEnd?: string;
        weekdays?: string;
        hours?: string;
        timeZone?: string;
        landing?: string;
        remedialOn?: string;
        graceHours?: string;
        senderDomain?: string;
        json?: boolean;
      }) => {
        const accountId = idOption('account', opts.account);
        const [hourStart, hourEnd] = opts.hours ? opts.hours.split('-').map((h) => Number(h)) : [];
        const created = await createPhishingCampaign(await ctx.db(), accountId, {
          name: opts.name,
          description: opts.description,
          group_ids: (opts.group ?? []).map((g) => idOption('group', g)),
          template_keys: opts.template,
          remedial_course_keys: opts.course,
          window_start_at: opts.windowStart,
          window_end_at: opts.windowEnd,
          weekdays: opts.weekdays?.split(',').map((d) => d.trim().toLowerCase()),
          hour_start: hourStart,
          hour_end: hourEnd,
          time_zone: opts.timeZone,
          landing: opts.landing,
          remedial_on: opts.remedialOn,
          grace_hours: opts.graceHours === undefined ? undefined : Number(opts.graceHours),
          sender_domain: opts.senderDomain,
        });
        const shown = withAccount(created, presentAdminPhishingCampaign);
        print(
          ctx,
          opts.json,
          shown,
          () => `created phishing campaign ${shown.id} "${shown.name}" (${shown.status})`,
        );
      },
    );

  launchCommand(phishing, ctx, {
    description:
      'launch a draft or scheduled phishing campaign now: plan each send moment and queue the mail',
    launch: launchPhishingCampaign,
    present: presentAdminPhishingCampaign,
    summary: (shown) =>
      `launched phishing campaign ${shown.id} "${shown.name}": ${shown.figures?.recipients ?? 0} recipients, sending ${shown.window_start_at} to ${shown.window_end_at}`,
  });

  pageOptions(
    phishing
      .command('list')
      .description('the account’s phishing campaigns, newest first')
      .requiredOption('--account <id>', 'account id')
      .option('--status <status>', 'only this status')
      .option('--json', 'print JSON'),
  ).action(async (opts: PageOpts & { account: string; status?: string }) => {
    const accountId = idOption('account', opts.account);
    const window = pageWindow(opts);
    const page = await listPhishingCampaignsPage(await ctx.db(), accountId, window, { status: opts.status });
    printPage(ctx, opts, window, page, presentAdminPhishingCampaign, {
      item: (c) => `${c.id}\t${c.status}\t${c.figures?.recipients ?? '-'} recipients\t${c.name}`,
      noun: ['phishing campaign', 'phishing campaigns'],
      empty: 'no phishing campaigns',
    });
  });
}
