import { expect } from 'vitest';
import { main } from '../../src/cli/main.js';
import { describeDatabase } from '../../src/core/db/database.js';

/** Runs `vigil …` in-process with this environment (and standard input, when given), capturing its output. */
export async function runVigil(args: string[], env: NodeJS.ProcessEnv, stdin?: string) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env,
    ...(stdin === undefined ? {} : { stdin: async () => stdin }),
  });
  return { code, stdout, stderr };
}

export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The command run in-process on a database (the test file's, `databaseUrl()`, unless told), with the checks every use makes. */
export function vigilOn(databaseUrl: () => string) {
  /** Runs `vigil …` on `url`, capturing its output. */
  const vigil = (args: string[], url = databaseUrl()) => runVigil(args, { DATABASE_URL: url });

  /** What a command prints on stderr, without --json, about the database it works on. */
  const databaseLine = (url = databaseUrl()) => `database: ${describeDatabase(url)}\n`;

  /**
   * Runs a command with --json that must succeed, and returns the one JSON object it printed,
   * less the `database` every command adds (checked here).
   */
  async function vigilJson(args: string[], url = databaseUrl()) {
    const res = await vigil([...args, '--json'], url);
    expect(res.stderr, args.join(' ')).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout.endsWith('\n')).toBe(true);
    expect(res.stdout.trim().split('\n')).toHaveLength(1);
    const { database: shown, ...printed } = JSON.parse(res.stdout);
    expect(typeof printed === 'object' && printed !== null && !Array.isArray(printed)).toBe(true);
    expect(shown).toBe(describeDatabase(url));
    return printed;
  }

  /** A command that must fail: a message on stderr, nothing on stdout, a non-zero exit code. */
  async function expectFailure(args: string[], message: RegExp) {
    const res = await vigil(args);
    expect(res.code, args.join(' ')).not.toBe(0);
    expect(res.stdout, args.join(' ')).toBe('');
    expect(res.stderr, args.join(' ')).toMatch(message);
    return res;
  }

  const newAccount = async (name = 'Acme') =>
    (await vigilJson(['account', 'create', '--name', name])) as { id: number; name: string };

  const newKey = (accountId: number, ...extra: string[]) =>
    vigilJson(['key', 'create', '--account', String(accountId), '--name', 'HR sync', ...extra]);

  return { vigil, databaseLine, vigilJson, expectFailure, newAccount, newKey };
}
