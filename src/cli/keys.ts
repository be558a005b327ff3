import type { Command } from 'commander';
import { GrantError, parseGrants } from '../core/auth/permissions.js';
import { loadConfig } from '../core/config.js';
import { presentKey } from '../modules/access/keys/keys.presenter.js';
import {
  accountOfAnyKey,
  createKey,
  pageOfKeys,
  revokeKey,
  setKeyRateLimit,
} from '../modules/access/keys/keys.service.js';
import { bodyOption } from './body-options.js';
import {
  type CliContext,
  collect,
  idOption,
  type PageOpts,
  pageOptions,
  pageWindow,
  positiveInteger,
  print,
  printPage,
  UsageError,
} from './output.js';

function expiry(value: string | undefined): number | null {
  if (value === undefined) return null;
  const at = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(at)) {
    throw new UsageError(`--expires-at must be an ISO 8601 date or time, got "${value}"`);
  }
  return at;
}

function describe(key: ReturnType<typeof presentKey>): string {
  return [
    `  prefix:      ${key.prefix}`,
    `  permissions: ${key.permissions.join(', ')}`,
    `  rate limit:  ${key.rate_limit}/min`,
    `  status:      ${key.status}${key.expires_at ? ` (expires ${key.expires_at})` : ''}`,
    `  last used:   ${key.last_used_at ?? 'never'}`,
  ].join('\n');
}

export function keyCommands(program: Command, ctx: CliContext): void {
  const key = program.command('key').description('API keys of customer accounts');

  key
    .command('create')
    .description('create an API key; the key is printed once and never again')
    .requiredOption('--account <id>', 'account id')
    .addOption(bodyOption('--name <name>', 'a name to recognise the key by', 'name').makeOptionMandatory())
    .addOption(
      bodyOption(
        '--grant <grant>',
        'ACCESS_POINT:r|w|rw with ACCESS_POINT employees, groups, campaigns, reports or audit (reports:w alone: a report button, which reports and reads nothing; reports:r: the triage inbox, for a SIEM; audit:r: the audit log, read only) (repeatable)',
        'permissions',
      ).argParser(collect),
    )
    .addOption(
      bodyOption('--rate-limit <n>', 'requests per minute (default RATE_LIMIT_DEFAULT, 600)', 'rate_limit'),
    )
    .addOption(
      bodyOption('--expires-at <time>', 'ISO 8601 date or time after which the key is invalid', 'expires_at'),
    )
    .option('--json', 'print JSON')
    .action(
      async (opts: {
        account: string;
        name: string;
        grant?: string[];
        rateLimit?: string;
        expiresAt?: string;
        json?: boolean;
      }) => {
        if (!opts.grant?.length) throw new UsageError('give at least one --grant, e.g. --grant employees:rw');
        let permissions: ReturnType<typeof parseGrants>;
        try {
          permissions = parseGrants(opts.grant);
        } catch (err) {
          if (err instanceof GrantError) throw new UsageError(err.message);
          throw err;
        }
        const created = await createKey(await ctx.db(), {
          accountId: idOption('account', opts.account),
          name: opts.name,
          permissions,
          rateLimit:
            opts.rateLimit === undefined
              ? loadConfig(ctx.io.env).rateLimit.defaultPerMinute
              : positiveInteger('rate-limit', opts.rateLimit),
          expiresAt: expiry(opts.expiresAt),
        });
        const shown = { ...presentKey(created), key: created.key };
        print(
          ctx,
          opts.json,
          shown,
          () =>
            `created API key ${shown.id} "${shown.name}" for account ${shown.account_id}\n` +
            `  key:         ${shown.key}\n` +
            `               (copy it now: it is shown only this once)\n${describe(shown)}`,
        );
      },
    );

  pageOptions(
    key
      .command('list')
      .description("list an account's keys, oldest first (never their secrets)")
      .requiredOption('--account <id>', 'account id'),
  )
    .option('--json', 'print JSON')
    .action(async (opts: PageOpts & { account: string }) => {
      const accountId = idOption('account', opts.account);
      const window = pageWindow(opts);
      const page = await pageOfKeys(await ctx.db(), accountId, window);
      printPage(ctx, opts, window, page, (k) => presentKey(k), {
        item: (k) => `${k.id} "${k.name}"\n${describe(k)}`,
        noun: ['key', 'keys'],
        empty: 'no keys',
        about: { account_id: accountId },
      });
    });

  // Operators name a key by its id alone: the key's own account is the one acted in.
  key
    .command('revoke')
    .description('revoke a key: it stops working at once')
    .requiredOption('--id <id>', 'key id')
    .option('--json', 'print JSON')
    .action(async (opts: { id: string; json?: boolean }) => {
      const keyId = idOption('id', opts.id);
      const db = await ctx.db();
      const revoked = presentKey(await revokeKey(db, await accountOfAnyKey(db, keyId), keyId));
      print(
        ctx,
        opts.json,
        revoked,
        () => `revoked API key ${revoked.id} "${revoked.name}"\n${describe(revoked)}`,
      );
    });

  key
    .command('set-rate-limit')
    .description("change a key's per-minute budget")
    .requiredOption('--id <id>', 'key id')
    .addOption(bodyOption('--rate-limit <n>', 'requests per minute', 'rate_limit').makeOptionMandatory())
    .option('--json', 'print JSON')
    .action(async (opts: { id: string; rateLimit: string; json?: boolean }) => {
      const keyId = idOption('id', opts.id);
      const rateLimit = positiveInteger('rate-limit', opts.rateLimit);
      const db = await ctx.db();
      const updated = presentKey(
        await setKeyRateLimit(db, await accountOfAnyKey(db, keyId), keyId, rateLimit),
      );
      print(ctx, opts.json, updated, () => `API key ${updated.id} "${updated.name}"\n${describe(updated)}`);
    });
}
