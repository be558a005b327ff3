import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { sql } from 'kysely';
import type { Db } from '../../src/core/db/database.js';

/** What the hostile-input suite watches while it sends: the server's answers to others, its memory, the database. */

export interface HealthReport {
  slowestMs: number;
  slowestAt: string;
  answered: number;
  failures: string[];
}

export interface HealthWatch {
  /** The slowest `/healthz` answer so far, and every failure. */
  report(): Promise<HealthReport>;
  stop(): Promise<void>;
}

/** Starts asking `/healthz` continuously from a process of its own (health-watch.mjs). */
export async function startHealthWatch(baseUrl: string): Promise<HealthWatch> {
  const child: ChildProcess = fork(resolve(import.meta.dirname, 'health-watch.mjs'), [baseUrl], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await once(child, 'spawn');
  return {
    async report() {
      const answer = once(child, 'message');
      child.send('report');
      const [report] = (await answer) as [HealthReport];
      return report;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.send('stop');
      await exited;
    },
  };
}

/** The most memory the process has held since it started (Linux's VmHWM), in MiB. */
export function peakRssMiB(pid: number): number {
  return statusMiB(pid, 'VmHWM');
}

/** The memory the process holds now (Linux's VmRSS), in MiB. */
export function rssMiB(pid: number): number {
  return statusMiB(pid, 'VmRSS');
}

function statusMiB(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1];
  if (kib === undefined) throw new Error(`no ${field} in /proc/<pid>/status`);
  return Number(kib) / 1024;
}

/** The number of rows of every table of the schema, by table: what "nothing is written" compares. */
export async function tableCounts(db: Db, dialect: 'sqlite' | 'postgres'): Promise<Record<string, number>> {
  const tables =
    dialect === 'sqlite'
      ? await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db)
      : await sql<{
          name: string;
        }>`select tablename as name from pg_tables where schemaname = current_schema()`.execute(db);
  const counts: Record<string, number> = {};
  for (const { name } of tables.rows.sort((a, b) => a.name.localeCompare(b.name))) {
    const row = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(name)}`.execute(db);
    counts[name] = Number(row.rows[0]?.n);
  }
  return counts;
}
