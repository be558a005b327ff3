// Processes and HTTP checks for .ci/production-build.ts.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

export const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(0)} s`;

/** The processes started here (ended by killAll if still running), their names and output. */
const children = new Set<ChildProcess>();
const names = new Map<ChildProcess, string>();
const output = new Map<ChildProcess, string>();

/** Starts a command in its own process group (so that a timeout ends its children too). */
export function start(
  command: string[],
  cwd: string,
  env: Record<string, string>,
  name: string,
  stdio: 'pipe' | 'inherit' = 'pipe',
): ChildProcess {
  const [file, ...args] = command as [string, ...string[]];
  const child = spawn(file, args, { cwd, env, stdio: ['ignore', stdio, stdio], detached: true });
  children.add(child);
  names.set(child, name);
  output.set(child, '');
  const keep = (d: Buffer) => output.set(child, output.get(child) + d.toString());
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.on('exit', () => children.delete(child));
  return child;
}

function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {} // already gone
}

export function tail(child: ChildProcess): string {
  return (output.get(child) ?? '').split('\n').slice(-20).join('\n');
}

class Timeout extends Error {}

/** Resolves with the exit code (null when a signal ended it); past the timeout, ends it and rejects. */
export async function exitOf(child: ChildProcess, timeoutMs: number): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child);
  }, timeoutMs);
  const [code] = await once(child, 'exit');
  clearTimeout(timer);
  if (timedOut) throw new Timeout(`${names.get(child)} did not end within ${timeoutMs / 1000} s`);
  return code as number | null;
}

/**
 * Runs a build command to its end, or fails. npm now and then stalls for good, idle, in the
 * middle of an install (seen here once in a few runs; npm/cli#4028): past 10 minutes, when a
 * normal install takes 2 to 3, the attempt is ended and tried once more.
 */
export async function runToEnd(command: string[], cwd: string, env: Record<string, string>, what: string) {
  const since = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      const code = await exitOf(start(command, cwd, env, what, 'inherit'), 10 * 60_000);
      if (code !== 0) throw new Error(`${what}: exit code ${code}`);
      console.log(`(${seconds(since)})`);
      return;
    } catch (err) {
      if (!(err instanceof Timeout) || attempt === 2) throw err;
      console.log(`${err.message}: trying once more`);
    }
  }
}

export async function stopWith(child: ChildProcess, signal: NodeJS.Signals, name: string): Promise<void> {
  const since = Date.now();
  child.kill(signal);
  const code = await exitOf(child, 40_000);
  if (code !== 0)
    throw new Error(`${name} exited ${code ?? child.signalCode} after ${signal}:\n${tail(child)}`);
  console.log(`${name}: exit 0 after ${signal} (${seconds(since)})`);
}

/** Waits until `url` answers 200 (a server still starting refuses connections). */
export async function until(child: ChildProcess, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${names.get(child)} exited before ${url} answered:\n${tail(child)}`);
    }
    const status = await fetch(url).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > deadline)
      throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s:\n${tail(child)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function untilOutput(child: ChildProcess, line: RegExp, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!line.test(output.get(child) ?? '')) {
    if (child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`${names.get(child)} did not log ${line}:\n${tail(child)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  // Its SIGTERM handler is installed in the same tick as that line; leave a margin all the same.
  await new Promise((r) => setTimeout(r, 500));
}

export async function expectStatus(url: string, status: number): Promise<{ body: string; type: string }> {
  const res = await fetch(url);
  // Read to the end: a response left half-read keeps its connection busy, and the server's
  // graceful close waits for it.
  const body = await res.text();
  if (res.status !== status) throw new Error(`GET ${url}: ${res.status}, expected ${status}`);
  console.log(`GET ${new URL(url).pathname}: ${res.status}`);
  return { body, type: res.headers.get('content-type') ?? '' };
}

/** /admin/ serves the built web interface, and the script it names is there. */
export async function expectWebInterface(base: string): Promise<void> {
  const page = await expectStatus(`${base}/admin/`, 200);
  const script = /<script type="module" src="([^"]+)"/.exec(page.body)?.[1];
  if (!script) throw new Error('GET /admin/: no <script type="module"> in the page');
  const { type } = await expectStatus(`${base}${script}`, 200);
  if (!/javascript/.test(type)) throw new Error(`${script}: ${type}, not JavaScript`);
}

export function outputOf(child: ChildProcess): string {
  return output.get(child) ?? '';
}

/** Ends every process started here that still runs, with its children. */
export function killAll(): void {
  for (const child of children) killGroup(child);
}
