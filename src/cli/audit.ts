import type { Command } from 'commander';
import { type ChainReport, verifyAuditChains } from '../core/audit/audit-chain.js';
import { type CliContext, Failed, idOption, print } from './output.js';

function line(report: ChainReport): string {
  const chain = report.accountId === 0 ? 'service (chain 0)' : `account ${report.accountId}`;
  const span = `${report.rows} rows, ${report.anchorSeq}–${report.headSeq}`;
  if (report.ok) return `ok      ${chain}: ${span}`;
  const b = report.broken;
  return `BROKEN  ${chain}: ${span}; first break at row ${b?.seq}${b?.id !== null ? ` (id ${b?.id})` : ''}, ${b?.kind}: ${b?.reason}`;
}

export function auditCommands(program: Command, ctx: CliContext): void {
  const audit = program.command('audit').description('the audit log');

  audit
    .command('verify')
    .description(
      "recompute each account's hash chain from its anchor to its head and name the first row that breaks it (changed, deleted or inserted rows); exit code 1 when a chain is broken",
    )
    .option('--account <id>', 'only this account (0: the service’s own chain)')
    .option('--json', 'print JSON')
    .action(async (opts: { account?: string; json?: boolean }) => {
      const accountId =
        opts.account === undefined ? undefined : opts.account === '0' ? 0 : idOption('account', opts.account);
      const chains = await verifyAuditChains(await ctx.db(), accountId);
      const ok = chains.every((c) => c.ok);
      print(ctx, opts.json, { ok, chains }, () =>
        chains.length === 0 ? 'the audit log is empty' : chains.map(line).join('\n'),
      );
      if (!ok) throw new Failed();
    });
}
