import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { linkTo, listeningUrl } from '../http/links.js';
import { presentAdmin } from '../modules/admins/admins.presenter.js';
import { createAdmin } from '../modules/admins/admins.service.js';
import { createSetupLink } from '../modules/invitations/invitations.service.js';
import { type CliContext, idOption, print, UsageError } from './output.js';

export function adminCommands(program: Command, ctx: CliContext): void {
  const admin = program.command('admin').description('administrators of the web interface');

  admin
    .command('create')
    .description('create an operator (--operator) or an account administrator (--account ID)')
    .requiredOption('--email <email>', 'sign-in address')
    .requiredOption('--password <password>', 'at least 12 characters')
    .option('--name <name>', 'display name')
    .option('--account <id>', 'the account this administrator runs')
    .option('--operator', 'an operator of the whole service')
    .option('--json', 'print JSON')
    .action(
      async (opts: {
        email: string;
        password: string;
        name?: string;
        account?: string;
        operator?: boolean;
        json?: boolean;
      }) => {
        if (Boolean(opts.operator) === (opts.account !== undefined)) {
          throw new UsageError('give exactly one of --operator or --account ID');
        }
        const created = presentAdmin(
          await createAdmin(await ctx.db(), {
            email: opts.email,
            password: opts.password,
            name: opts.name,
            role: opts.operator ? 'operator' : 'account_admin',
            accountId: opts.operator ? null : idOption('account', opts.account),
          }),
        );
        const what =
          created.role === 'operator' ? 'operator' : `administrator of account ${created.account_id}`;
        print(ctx.io, opts.json, created, () => `created ${what} ${created.id} <${created.email}>`);
      },
    );

  admin
    .command('setup-link')
    .description('print a new one-time link that creates an operator (earlier setup links stop working)')
    .option('--base-url <url>', 'where the server is reached (default: PUBLIC_URL, else HOST and PORT)')
    .option('--json', 'print JSON')
    .action(async (opts: { baseUrl?: string; json?: boolean }) => {
      const config = loadConfig(ctx.io.env);
      const base = opts.baseUrl ?? config.publicUrl ?? listeningUrl(config.host, config.port);
      const { token, invitation } = await createSetupLink(await ctx.db());
      const url = linkTo(base, `/admin/setup/${token}`);
      const shown = { url, expires_at: new Date(invitation.expires_at).toISOString() };
      print(ctx.io, opts.json, shown, () => `${url}\n  (valid once, until ${shown.expires_at})`);
    });
}
