import { pollFromThread } from '../test/helpers/faults.js';
import { RssSampler } from './processes.js';

/** The 100,000-id membership replacement, timed as sequential requests (one client, nothing else running). */

export interface TimedSeries {
  label: string;
  /** Wall time of each request, from sending to the last byte of the answer, in ms. */
  ms: number[];
  bad: number;
  badDetail: string;
}

export interface ReplaceResult {
  series: TimedSeries[];
  peakRssMiB: number;
  /** The longest a `GET /healthz` sent every 20 ms during the PUTs waited for its answer. */
  longestHealthMs: number;
  /** Size of the answer to the full PUT (the group detail lists every member), and how many members it lists. */
  responseBytes: number;
  members: number;
}

interface Step {
  label: string;
  body: string;
  expectedMembers: number;
}

/** Clients send ids in any order: a fixed shuffle, so every run sends the same request. */
function shuffled(ids: number[]): number[] {
  const out = [...ids];
  let state = 42;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j] as number, out[i] as number];
  }
  return out;
}

export async function timeReplacements(options: {
  baseUrl: string;
  pid: number;
  key: string;
  groupId: number;
  employeeIds: number[];
  runs: number;
}): Promise<ReplaceResult> {
  const url = `${options.baseUrl}/api/api_gateway/customer/groups/${options.groupId}/`;
  const all = JSON.stringify({ employee_ids: shuffled(options.employeeIds) });
  const n = options.employeeIds.length.toLocaleString('en');
  const steps: Step[] = [
    { label: `PUT ${n} ids into an empty group`, body: all, expectedMembers: options.employeeIds.length },
    {
      label: `PUT the same ${n} ids again (no change)`,
      body: all,
      expectedMembers: options.employeeIds.length,
    },
    { label: `PUT [] removing ${n} members`, body: '{"employee_ids":[]}', expectedMembers: 0 },
  ];
  const series = steps.map((s) => ({ label: s.label, ms: [] as number[], bad: 0, badDetail: '' }));
  const sampler = new RssSampler(options.pid);
  sampler.start();
  // From a thread of its own: this thread's parsing of each 10 MiB answer must not count.
  const health = pollFromThread(`${options.baseUrl}/healthz`, 20);
  let responseBytes = 0;
  for (let run = 0; run < options.runs; run++) {
    for (const [i, step] of steps.entries()) {
      const start = performance.now();
      const res = await fetch(url, {
        method: 'PUT',
        headers: { apikey: options.key, 'content-type': 'application/json' },
        body: step.body,
      });
      const text = await res.text();
      const ms = performance.now() - start;
      const out = series[i] as TimedSeries;
      out.ms.push(ms);
      const count = res.status === 200 ? (JSON.parse(text) as { employees: unknown[] }).employees.length : -1;
      if (res.status !== 200 || count !== step.expectedMembers) {
        out.bad++;
        out.badDetail = `status ${res.status}, ${count} members: ${text.slice(0, 200)}`;
      }
      if (step.expectedMembers > 0) responseBytes = text.length;
    }
  }
  return {
    series,
    peakRssMiB: sampler.stop(),
    longestHealthMs: Math.max(...(await health.stop())),
    responseBytes,
    members: options.employeeIds.length,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
