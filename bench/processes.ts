import { type ChildProcess, execSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { freePort } from '../test/helpers/server-process.js';

/** Servers under load run as their own processes, so they never share an event loop with autocannon. */

export const ROOT = resolve(import.meta.dirname, '..');
export const TMP = resolve(ROOT, 'bench/.tmp');

/** The commit measured, flagged when `src/` has changes not committed yet. */
export function gitRevision(): string {
  try {
    const sha = execSync('git rev-parse --short HEAD', { cwd: ROOT }).toString().trim();
    const dirty = execSync('git status --porcelain -- src', { cwd: ROOT }).toString().trim() !== '';
    return dirty ? `${sha} + uncommitted src changes` : sha;
  } catch {
    return 'unknown';
  }
}

export interface BenchServer {
  pid: number;
  baseUrl: string;
  /** File receiving the process's standard output and error. */
  logFile: string;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Script and node flags, relative to the repository. */
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Path answering 200 once the server is ready. */
  readyPath: string;
  logFile: string;
}

async function waitReady(child: ChildProcess, url: string, logFile: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early; see ${logFile}`);
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {}
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become ready; see ${logFile}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts a server process on a free port with a minimal environment; its logs go to a file, not through this process. */
export async function startProcess(options: StartOptions): Promise<BenchServer> {
  const port = await freePort();
  const log = openSync(options.logFile, 'w');
  const child = spawn(process.execPath, options.args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HOST: '127.0.0.1',
      PORT: String(port),
      ...options.env,
    },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitReady(child, `${baseUrl}${options.readyPath}`, options.logFile);
  return {
    pid: child.pid as number,
    baseUrl,
    logFile: options.logFile,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

const MiB = 1024 * 1024;

/** The fields of /proc/PID/stat after the command name (which may hold spaces). */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** A process and its descendants (a server with WEB_CONCURRENCY > 1 is a primary and its workers). */
export function processTree(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      parents.set(Number(entry), Number(statFields(Number(entry))[1]));
    } catch {} // gone meanwhile
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  }
  return tree;
}

function memoryOfOne(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rss: (kib('VmRSS') * 1024) / MiB, hwm: (kib('VmHWM') * 1024) / MiB };
}

/**
 * VmRSS / VmHWM of a server, in MiB (Linux /proc): of its one process, or summed over a
 * cluster's processes (the high-water marks of several processes summed: an upper bound).
 */
export function memoryOf(pid: number): { rss: number; hwm: number } {
  const total = { rss: 0, hwm: 0 };
  for (const one of processTree(pid)) {
    try {
      const m = memoryOfOne(one);
      total.rss += m.rss;
      total.hwm += m.hwm;
    } catch {}
  }
  return total;
}

/**
 * CPU time (user + system) of every process of this name (`postgres`: the server and all its
 * backends) so far, in ms: the database's share of a load, beside the server's own.
 */
export function cpuMsOfCommand(command: string): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== command) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {} // gone meanwhile
  }
  return ticks * 10;
}

/** CPU time (user + system, all threads) a server has used so far, in ms, all its processes included. */
export function cpuMsOf(pid: number): number {
  let ticks = 0;
  for (const one of processTree(pid)) {
    try {
      // utime and stime are the 12th and 13th fields after the command name, in clock ticks of 10 ms.
      const fields = statFields(one);
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {}
  }
  return ticks * 10;
}

/** Samples a process's resident memory every few hundred milliseconds and keeps the peak. */
export class RssSampler {
  private peak = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly pid: number) {}

  start(): void {
    this.peak = memoryOf(this.pid).rss;
    this.timer = setInterval(() => {
      this.peak = Math.max(this.peak, memoryOf(this.pid).rss);
    }, 200);
  }

  /** Stops sampling; returns the peak VmRSS seen since start, in MiB. */
  stop(): number {
    clearInterval(this.timer);
    return Math.max(this.peak, memoryOf(this.pid).rss);
  }
}
