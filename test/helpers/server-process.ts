import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { expect } from 'vitest';

/** Runs the built server (`dist/server.js`, as `npm start` does) as a real process. */

const ROOT = resolve(import.meta.dirname, '../..');

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

export interface ServerProcess {
  child: ChildProcess;
  pid: number;
  baseUrl: string;
  output: () => string;
  /** Sends a signal and waits for the exit; resolves with the exit code (null when killed). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface StartOptions {
  /** Wait until `/readyz` answers 200 (default); false returns as soon as the process runs. */
  waitForReady?: boolean;
}

export async function startServer(
  env: NodeJS.ProcessEnv,
  { waitForReady = true }: StartOptions = {},
): Promise<ServerProcess> {
  const port = await freePort();
  // `{port}` in a value is the port chosen here (PHISH_URL=http://localhost:{port}).
  const withPort = Object.fromEntries(
    Object.entries(env).map(([name, value]) => [name, value?.replaceAll('{port}', String(port))]),
  );
  const child = spawn(process.execPath, [resolve(ROOT, 'dist/server.js')], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), ...withPort },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  if (waitForReady) {
    try {
      await waitUntilReady(baseUrl, 60_000, child);
    } catch (err) {
      child.kill('SIGKILL');
      throw new Error(`${(err as Error).message}:\n${output}`);
    }
  }
  return {
    child,
    pid: child.pid as number,
    baseUrl,
    output: () => output,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      // 'close' comes once the output has been read to its end as well (output() is then whole).
      const closed = once(child, 'close');
      child.kill(signal);
      const [code] = await closed;
      return code as number | null;
    },
  };
}

/** Waits until `/readyz` answers 200; throws after `ms` or when `child` (if given) has exited. */
export async function waitUntilReady(baseUrl: string, ms = 20_000, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + ms;
  let last = 'no answer';
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      const res = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2000) });
      last = `${res.status} ${await res.text()}`;
      if (res.status === 200) return;
    } catch (err) {
      last = String(err);
    }
    if (Date.now() > deadline) throw new Error(`server not ready within ${ms} ms (last: ${last})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A process's resident memory now and its peak (VmRSS, VmHWM from /proc), in MiB. */
export function processMemory(pid: number): { rssMiB: number; peakMiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
  return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
}

/**
 * Runs the `vigil` command as an operator would, returning its output and exit code: in the
 * project's folder unless told another, with `input` on its standard input.
 */
export async function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  { cwd = ROOT, input }: { cwd?: string; input?: string } = {},
) {
  const child = spawn(process.execPath, [resolve(ROOT, 'bin/vigil.js'), ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  // Standard input ends at once (after `input`, if any), as when nothing is piped in.
  child.stdin.end(input);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  // 'close', not 'exit': a process can exit before its output has been read from the pipes.
  const [code] = await once(child, 'close');
  return { code: code as number, stdout, stderr };
}

/** An account and a key made with the operator command, as in production. */
export async function cliAccountKey(
  env: NodeJS.ProcessEnv,
  ...args: string[]
): Promise<{ accountId: number; key: string }> {
  const account = await runCli(['account', 'create', '--name', 'Operations', '--json'], env);
  expect(account.code, account.stderr).toBe(0);
  const { id } = JSON.parse(account.stdout);
  const created = await runCli(
    ['key', 'create', '--account', String(id), '--name', 'ops', ...args, '--json'],
    env,
  );
  expect(created.code, created.stderr).toBe(0);
  return { accountId: id, key: JSON.parse(created.stdout).key };
}

/** The key of a new account made with the operator command. */
export async function cliKey(env: NodeJS.ProcessEnv, ...args: string[]): Promise<string> {
  return (await cliAccountKey(env, ...args)).key;
}
