import type { Command } from 'commander';
import { loadConfig } from '../core/config.js';
import { linkTo } from '../core/http/links.js';
import { presentAdmin } from '../modules/access/admins/admins.presenter.js';
import { accountAdminByEmail, createAdmin } from '../modules/access/admins/admins.service.js';
import { disableAdmin, enableAdmin } from '../modules/access/admins/admins.status.service.js';
import { createSetupLink } from '../modules/access/invitations/invitations.service.js';
import { adminForOperatorReset, mfaRequiredFor, resetFactors } from '../modules/access/mfa/mfa.service.js';
import { linkBase } from '../startup.js';
import { bodyOption } from './body-options.js';
import { type CliContext, idOption, passwordOption, print, UsageError } from './output.js';

export function adminCommands(program: Command, ctx: CliContext): void {
  const admin = program.command('admin').description('administrators of the web interface');

  admin
    .command('create')
    .description('create an operator (--operator) or an account administrator (--account ID)')
    .addOption(bodyOption('--email <email>', 'sign-in address', 'email').makeOptionMandatory())
    .addOption(
      bodyOption(
        '--password <password>',
        'at least 12 characters (visible to other users of this machine: prefer --password-stdin)',
        'password',
      ),
    )
    .addOption(bodyOption('--password-stdin', 'read the password from standard input (one line)', 'password'))
    .addOption(bodyOption('--name <name>', 'display name', 'name'))
    .option('--account <id>', 'the account this administrator runs')
    .option('--operator', 'an operator of the whole service')
    .option('--json', 'print JSON')
    .action(
      async (opts: {
        email: string;
        password?: string;
        passwordStdin?: boolean;
        name?: string;
        account?: string;
        operator?: boolean;
        json?: boolean;
      }) => {
        if (Boolean(opts.operator) === (opts.account !== undefined)) {
          throw new UsageError('give exactly one of --operator or --account ID');
        }
        const accountId = opts.operator ? null : idOption('account', opts.account);
        const password = await passwordOption(ctx.io, opts);
        // The first operator may be made before the server ever ran; an account's administrator
        // needs an account, so a database that does not exist yet is the wrong one.
        const created = presentAdmin(
          await createAdmin(await ctx.db({ create: Boolean(opts.operator) }), {
            email: opts.email,
            password,
            name: opts.name,
            role: opts.operator ? 'operator' : 'account_admin',
            accountId,
          }),
        );
        const what =
          created.role === 'operator' ? 'operator' : `administrator of account ${created.account_id}`;
        print(ctx, opts.json, created, () => `created ${what} ${created.id} <${created.email}>`);
      },
    );

  for (const [name, description] of [
    ['disable', 'disable an account administrator: every session ends now and sign-in is refused'],
    ['enable', 'enable a disabled account administrator again'],
  ] as const) {
    admin
      .command(name)
      .description(description)
      .requiredOption('--email <email>', 'their sign-in address')
      .option('--json', 'print JSON')
      .action(async (opts: { email: string; json?: boolean }) => {
        const db = await ctx.db();
        const found = await accountAdminByEmail(db, opts.email);
        const accountId = found.account_id as number;
        const changed =
          name === 'disable'
            ? (await disableAdmin(db, accountId, null, found.id)).admin
            : await enableAdmin(db, accountId, found.id);
        const shown = presentAdmin(changed);
        print(ctx, opts.json, shown, () => `${name}d administrator ${shown.id} <${shown.email}>`);
      });
  }

  admin
    .command('reset-mfa')
    .description(
      "remove an administrator's or operator's second factors (authenticator apps, passkeys, recovery codes) and end their sessions: a lost factor when no other owner can reset it",
    )
    .requiredOption('--email <email>', 'their sign-in address')
    .option('--account <id>', 'the account they administer (refused when they do not)')
    .option('--json', 'print JSON')
    .action(async (opts: { email: string; account?: string; json?: boolean }) => {
      const accountId = opts.account === undefined ? undefined : idOption('account', opts.account);
      const db = await ctx.db();
      const target = await adminForOperatorReset(db, opts.email, accountId);
      const reset = await resetFactors(db, target.account_id, target);
      const mustEnrol = await mfaRequiredFor(db, target, loadConfig(ctx.io.env).admin.mfaRequired);
      const shown = {
        id: target.id,
        email: target.email,
        account_id: target.account_id,
        removed: { totp: reset.totp, passkeys: reset.passkeys, recovery_codes: reset.recoveryCodes },
        sessions_ended: reset.sessionsEnded,
        must_enrol: mustEnrol,
      };
      const who = target.role === 'operator' ? 'operator' : 'administrator';
      print(ctx, opts.json, shown, () =>
        [
          `reset the second factors of ${who} ${target.id} <${target.email}>`,
          `  removed ${count(reset.totp, 'authenticator app')}, ${count(reset.passkeys, 'passkey')}, ${count(reset.recoveryCodes, 'unused recovery code')}`,
          `  ended ${count(reset.sessionsEnded, 'session')}`,
          mustEnrol
            ? '  they sign in with their password and must add a new factor before anything else'
            : '  they sign in with their password alone until they add a new factor',
        ].join('\n'),
      );
    });

  admin
    .command('setup-link')
    .description('print a new one-time link that creates an operator (earlier setup links stop working)')
    .option('--base-url <url>', 'where people reach the server (default: PUBLIC_URL, else http://HOST:PORT)')
    .option('--json', 'print JSON')
    .action(async (opts: { baseUrl?: string; json?: boolean }) => {
      const base =
        opts.baseUrl === undefined ? linkBase(loadConfig(ctx.io.env)) : baseUrlOption(opts.baseUrl);
      // Never on a new database: the server's first start would revoke the link for its own.
      const { token, invitation } = await createSetupLink(await ctx.db());
      const url = linkTo(base, `/admin/setup/${token}`);
      const shown = { url, expires_at: new Date(invitation.expires_at).toISOString() };
      print(ctx, opts.json, shown, () => `${url}\n  (valid once, until ${shown.expires_at})`);
    });
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

function baseUrlOption(value: string): string {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new UsageError(`--base-url must be an absolute http(s) URL, got "${value}"`);
  }
  return url.href;
}
