import { connect } from 'node:net';
import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import { parseGrants } from '../../src/core/auth/permissions.js';
import { employeeSearchText } from '../../src/core/search-text.js';
import { createAccount } from '../../src/modules/access/accounts/accounts.service.js';
import { createKey, MAX_RATE_LIMIT } from '../../src/modules/access/keys/keys.service.js';
import { createGroup } from '../../src/modules/directory/groups/groups.service.js';
import { openMigrated } from './database.js';

/** What fault tests observe from the outside: answers with their timing, log lines, raw HTTP. */

export const API = '/api/api_gateway';

export interface Answer {
  label: string;
  /** The HTTP status, 'dropped' when the connection failed, 'no answer' when it timed out. */
  status: number | 'dropped' | 'no answer';
  /** From sending the request to the last byte of the answer. */
  ms: number;
  /** When the request was sent (Date.now()). */
  sentAt: number;
  headers: Headers | undefined;
  text: string;
}

export interface CallOptions {
  key?: string;
  body?: unknown;
  /** Give up (status 'no answer') after this long; default 30 s. */
  timeoutMs?: number;
  label?: string;
}

/** One request with its outcome and duration; never throws. */
export async function call(
  baseUrl: string,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  { key, body, timeoutMs = 30_000, label = `${method} ${path}` }: CallOptions = {},
): Promise<Answer> {
  const sentAt = Date.now();
  const start = performance.now();
  const headers: Record<string, string> = key ? { apikey: key } : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  try {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    return { label, status: res.status, ms: performance.now() - start, sentAt, headers: res.headers, text };
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError';
    const status = timedOut ? 'no answer' : 'dropped';
    const cause = (err as { cause?: Error }).cause?.message ?? (err as Error).message;
    return { label, status, ms: performance.now() - start, sentAt, headers: undefined, text: cause };
  }
}

export function bodyOf(answer: Answer): Record<string, unknown> | undefined {
  try {
    return JSON.parse(answer.text);
  } catch {
    return undefined;
  }
}

/** A short description of an answer for assertion messages. */
export function show(answer: Answer): string {
  return `${answer.label} → ${answer.status} after ${Math.round(answer.ms)} ms: ${answer.text.slice(0, 160)}`;
}

/** The contract's 503 for an unreachable database: shape, status, code and version header. */
export function isUnavailable(answer: Answer): boolean {
  const body = bodyOf(answer);
  return (
    answer.status === 503 &&
    answer.headers?.get('x-api-version') === '2.2.0' &&
    body?.error === 'Service unavailable' &&
    body?.status === 503 &&
    body?.code === 'service_unavailable'
  );
}

/** Every JSON log line a process wrote (anything else it printed is skipped). */
export function logEntries(output: string): Record<string, unknown>[] {
  return output.split('\n').flatMap((line) => {
    if (!line.startsWith('{')) return [];
    try {
      return [JSON.parse(line)];
    } catch {
      return [];
    }
  });
}

export function countLogs(output: string, msg: string): number {
  return logEntries(output).filter((entry) => entry.msg === msg).length;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every `everyMs` until it is true or `ms` passed; answers whether it became true. */
export async function eventually(check: () => boolean | Promise<boolean>, ms: number, everyMs = 100) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await sleep(everyMs);
  }
}

const POLLER = `
const { parentPort, workerData } = require('node:worker_threads');
let running = true;
const waits = [];
parentPort.on('message', () => { running = false; });
(async () => {
  while (running) {
    const start = performance.now();
    try {
      const res = await fetch(workerData.url, { signal: AbortSignal.timeout(30000) });
      await res.text();
      waits.push(res.status === 200 ? performance.now() - start : Infinity);
    } catch {
      waits.push(Infinity);
    }
    await new Promise((r) => setTimeout(r, workerData.everyMs));
  }
  parentPort.postMessage(waits);
  parentPort.close();
})();
`;

/**
 * GETs `url` every `everyMs` from a thread of its own (so the test's own work cannot delay it)
 * until stopped; `stop` answers every wait in ms (Infinity for a failure).
 */
export function pollFromThread(url: string, everyMs: number): { stop(): Promise<number[]> } {
  const worker = new Worker(POLLER, { eval: true, workerData: { url, everyMs } });
  const result = new Promise<number[]>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    async stop() {
      worker.postMessage('stop');
      const waits = await result;
      await worker.terminate();
      return waits;
    },
  };
}

export interface RawAnswer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/**
 * Writes `payload` as-is on a new TCP connection and reads one HTTP answer (complete by its
 * Content-Length, or by the connection closing); null when none arrived within `waitMs`.
 */
export function rawRequest(port: number, payload: string, waitMs: number): Promise<RawAnswer | null> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let data = Buffer.alloc(0);
    let settled = false;
    const finish = (answer: RawAnswer | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const parse = (closed: boolean): RawAnswer | null | undefined => {
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) return closed ? null : undefined;
      const [statusLine = '', ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const body = data.subarray(end + 4);
      const length = headers['content-length'];
      if (length !== undefined && body.length < Number(length) && !closed) return undefined;
      if (length === undefined && !closed) return undefined;
      const status = Number(statusLine.split(' ')[1]);
      return {
        status,
        headers,
        body: body.subarray(0, length === undefined ? undefined : Number(length)).toString(),
      };
    };
    const timer = setTimeout(() => finish(parse(true) ?? null), waitMs);
    socket.on('connect', () => socket.write(payload));
    socket.on('data', (chunk) => {
      data = Buffer.concat([data, chunk]);
      const answer = parse(false);
      if (answer !== undefined) finish(answer);
    });
    socket.on('close', () => finish(parse(true) ?? null));
    socket.on('error', () => finish(parse(true) ?? null));
  });
}

export interface LargeAccount {
  key: string;
  /** Every employee id, ascending. */
  employeeIds: number[];
  groupIds: number[];
}

/**
 * Migrates a fresh database and fills one account: a key with every grant and the largest
 * budget, `employees` employees inserted in bulk (as bench/seed.ts does), `groups` empty groups;
 * then planner statistics, as autovacuum would gather soon after a real import.
 */
export async function seedLargeAccount(
  url: string,
  employees: number,
  groups: number,
): Promise<LargeAccount> {
  const database = await openMigrated(url);
  try {
    const db = database.db;
    const account = await createAccount(db, { name: 'Large account' });
    const { key } = await createKey(db, {
      accountId: account.id,
      name: 'faults',
      permissions: parseGrants(['employees:rw', 'groups:rw']),
      rateLimit: MAX_RATE_LIMIT,
    });
    const employeeIds: number[] = [];
    const now = Date.now();
    await db.transaction().execute(async (trx) => {
      for (let start = 0; start < employees; start += 2000) {
        const rows = [];
        for (let i = start; i < Math.min(employees, start + 2000); i++) {
          const email = `employee.${i}@faults.example.com`;
          rows.push({
            account_id: account.id,
            first_name: `First${i}`,
            last_name: `Last${i}`,
            email,
            email_normalized: email,
            search_text: employeeSearchText({ first_name: `First${i}`, last_name: `Last${i}`, email }),
            created_at: now,
            updated_at: now,
          });
        }
        const inserted = await trx.insertInto('employees').values(rows).returning('id').execute();
        employeeIds.push(...inserted.map((r) => Number(r.id)));
      }
    });
    const groupIds: number[] = [];
    for (let i = 0; i < groups; i++) {
      groupIds.push((await createGroup(db, account.id, { name: `Large ${i + 1}`, description: '' })).id);
    }
    await sql`analyze`.execute(db);
    return { key, employeeIds: employeeIds.sort((a, b) => a - b), groupIds };
  } finally {
    await database.close();
  }
}
