import type { Command } from 'commander';
import { loadConfig } from '../core/config.js';
import { launchPhishingCampaign } from '../modules/phishing/campaigns/campaigns.launch.commands.js';
import { presentAdminPhishingCampaign } from '../modules/phishing/campaigns/campaigns.presenter.js';
import {
  createPhishingCampaign,
  listPhishingCampaignsPage,
} from '../modules/phishing/campaigns/campaigns.service.js';
import { senderPolicyOf } from '../modules/phishing/settings/settings.sender.service.js';
import { linkBase } from '../startup.js';
import { bodyOption } from './body-options.js';
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
/** The server's sender policy, from the same settings the server reads. */
function senderPolicy(ctx: CliContext) {
  const config = loadConfig(ctx.io.env);
  return senderPolicyOf(config.phishing.allowLocalSender, config.phishUrl ?? linkBase(config));
}

export function phishingCommands(program: Command, ctx: CliContext): void {
  const phishing = program.command('phishing').description('phishing simulation campaigns');

  phishing
    .command('create')
    .description('create a phishing campaign (starts as draft)')
    .requiredOption('--account <id>', 'account id')
    .addOption(bodyOption('--name <name>', 'campaign name', 'name').makeOptionMandatory())
    .addOption(bodyOption('--description <text>', 'what the campaign is for', 'description'))
    .addOption(bodyOption('--group <id>', 'target group id (repeatable)', 'group_ids').argParser(collect))
    .addOption(
      bodyOption(
        '--template <key>',
        'template key, builtin:<slug> or custom:<id> (repeatable: a pool)',
        'template_keys',
      ).argParser(collect),
    )
    .addOption(
      bodyOption('--course <key>', 'remedial course key (repeatable)', 'remedial_course_keys').argParser(
        collect,
      ),
    )
    .addOption(
      bodyOption(
        '--window-start <iso>',
        'first moment mail may go, e.g. 2026-12-01T08:00:00Z',
        'window_start_at',
      ),
    )
    .addOption(bodyOption('--window-end <iso>', 'last moment mail may go', 'window_end_at'))
    .addOption(bodyOption('--weekdays <list>', 'days mail may go, e.g. mon,tue,wed,thu,fri', 'weekdays'))
    .addOption(
      bodyOption('--hours <from-to>', 'sending hours in the time zone, e.g. 9-17', {
        hour_start: 'from',
        hour_end: 'to',
      }),
    )
    .addOption(bodyOption('--time-zone <zone>', 'IANA time zone, e.g. Europe/Berlin', 'time_zone'))
    .addOption(bodyOption('--landing <mode>', 'teach_on_click or teach_on_submit', 'landing'))
    .addOption(bodyOption('--remedial-on <step>', 'click or submit: when a person has failed', 'remedial_on'))
    .addOption(
      bodyOption(
        '--remedial-due-days <n>',
        'days from a failure to the remedial training’s due date (1-365, default 14)',
        'remedial_due_days',
      ),
    )
    .addOption(
      bodyOption(
        '--grace-hours <n>',
        'hours after the window during which results still count',
        'grace_hours',
      ),
    )
    .addOption(
      bodyOption(
        '--sender-domain <host>',
        "domain of the sender address (default: the account's, else the host of PHISH_URL)",
        'sender_domain',
      ),
    )
    .addOption(
      bodyOption(
        '--sender-name <name>',
        "sender name (default: the account's, else each template's own)",
        'sender_name',
      ),
    )
    .addOption(
      bodyOption(
        '--sender-address <local-part>',
        "the sender address's part before the @, e.g. payroll (default: the account's, else each template's own)",
        'sender_address',
      ),
    )
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
        remedialDueDays?: string;
        graceHours?: string;
        senderDomain?: string;
        senderName?: string;
        senderAddress?: string;
        json?: boolean;
      }) => {
        const accountId = idOption('account', opts.account);
        const [hourStart, hourEnd] = opts.hours ? opts.hours.split('-').map((h) => Number(h)) : [];
        const created = await createPhishingCampaign(
          await ctx.db(),
          accountId,
          {
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
            remedial_due_days: opts.remedialDueDays === undefined ? undefined : Number(opts.remedialDueDays),
            grace_hours: opts.graceHours === undefined ? undefined : Number(opts.graceHours),
            sender_domain: opts.senderDomain,
            sender_name: opts.senderName,
            sender_address: opts.senderAddress,
          },
          senderPolicy(ctx),
        );
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
    launch: (db, props) => launchPhishingCampaign(db, { ...props, sender: senderPolicy(ctx) }),
    present: presentAdminPhishingCampaign,
    summary: (shown) =>
      `launched phishing campaign ${shown.id} "${shown.name}": ${shown.figures?.recipients ?? 0} recipients, planned from ${shown.send_plan.first_at ?? '-'} to ${shown.send_plan.last_at ?? '-'} (window in ${shown.time_zone})`,
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
