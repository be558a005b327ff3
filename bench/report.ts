import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Dialect } from '../src/core/db/database.js';
import type { LoadResult } from './load.js';
import { median, type ReplaceResult } from './replace.js';

/** The targets of issue 9, per database: ratios are req/s over the bare-Fastify baseline's. */
export const TARGETS: Record<
  Dialect,
  { email: number; create: number; groups: number; detailP50Ms: number; replaceMs: number; launchMs: number }
> = {
  sqlite: { email: 0.22, create: 0.12, groups: 0.3, detailP50Ms: 15, replaceMs: 500, launchMs: 500 },
  postgres: { email: 0.15, create: 0.08, groups: 0.2, detailP50Ms: 25, replaceMs: 1000, launchMs: 2000 },
};
export const RSS_TARGET_MIB = 300;
/** WEB_CONCURRENCY=2 on two cores: the email look-up's req/s over the single process's. */
export const CLUSTER_SPEEDUP = 1.7;

export interface Measured {
  dialect: Dialect;
  heading: string;
  meta: string[];
  baselines: LoadResult[];
  /** Each endpoint with its target, if it has one. */
  endpoints: {
    result: LoadResult;
    target?: { text: string; met: (r: LoadResult, ratio: number) => boolean };
  }[];
  /** The same endpoints on a server of WEB_CONCURRENCY=2 (primary + 2 workers), with their targets. */
  cluster?: Measured['endpoints'];
  /** Absent when the run left the PUT out (`--only`). */
  replace?: ReplaceResult;
  /** VmRSS just after start, and VmHWM read just before the server stopped. */
  rss: { idle: number; hwm: number };
  serverErrors: number;
}

const int = (n: number) => Math.round(n).toLocaleString('en');
const ms = (n: number) => (n < 10 ? n.toFixed(1) : int(n));
const mib = (n: number) => n.toFixed(0);
const met = (ok: boolean) => (ok ? 'yes' : '**no**');
const bad = (r: { bad: number; badDetail: string }) => (r.bad === 0 ? '0' : `**${r.bad}** (${r.badDetail})`);

export function baselineReqPerSec(baselines: LoadResult[]): number {
  return baselines.reduce((sum, b) => sum + b.reqPerSec, 0) / baselines.length;
}

function replaceTable(replace: ReplaceResult, replaceMs: number): string[] {
  const lines = [
    '| request (sequential, one client) | runs | min ms | median ms | max ms | target | met? | bad |',
    '|---|---:|---:|---:|---:|---|---|---|',
  ];
  for (const [i, s] of replace.series.entries()) {
    const med = median(s.ms);
    // The target is on the real work: 100,000 new members.
    const target = i === 0 ? `≤ ${int(replaceMs)} ms` : '';
    const ok = i === 0 ? met(med <= replaceMs && s.bad === 0) : '';
    lines.push(
      `| ${s.label} | ${s.ms.length} | ${ms(Math.min(...s.ms))} | ${ms(med)} | ${ms(Math.max(...s.ms))} | ${target} | ${ok} | ${bad(s)} |`,
    );
  }
  return lines;
}

/** The Markdown section for one dialect: meta lines, the load table, the PUT table, memory. */
export function renderSection(m: Measured): string {
  const base = baselineReqPerSec(m.baselines);
  const lines = [`## ${m.heading}`, '', ...m.meta.map((l) => `- ${l}`), ''];
  lines.push(
    '| endpoint | conns | req/s | p50 ms | p99 ms | ratio to baseline | target | met? | server CPU µs/req | peak RSS MiB | bad responses |',
    '|---|---:|---:|---:|---:|---:|---|---|---:|---:|---|',
  );
  for (const b of m.baselines) {
    lines.push(
      `| ${b.label} | ${b.connections} | ${int(b.reqPerSec)} | ${b.p50} | ${b.p99} | ${((b.reqPerSec / base) * 100).toFixed(0)} % | baseline | | ${int(b.cpuMsPerRequest * 1000)} | ${mib(b.peakRssMiB)} | ${bad(b)} |`,
    );
  }
  for (const { result: r, target } of [...m.endpoints, ...(m.cluster ?? [])]) {
    const ratio = r.reqPerSec / base;
    const ok = target ? met(target.met(r, ratio) && r.bad === 0) : '';
    lines.push(
      `| ${r.label} | ${r.connections} | ${int(r.reqPerSec)} | ${r.p50} | ${r.p99} | ${(ratio * 100).toFixed(0)} % | ${target?.text ?? ''} | ${ok} | ${int(r.cpuMsPerRequest * 1000)} | ${mib(r.peakRssMiB)} | ${bad(r)} |`,
    );
  }
  if (m.replace) {
    lines.push('', ...replaceTable(m.replace, TARGETS[m.dialect].replaceMs));
    lines.push(
      '',
      `- While the PUTs ran, \`GET /healthz\` was asked every 20 ms on another connection: its longest answer took ${ms(m.replace.longestHealthMs)} ms (the event loop is never held longer than about that).`,
    );
  }
  // The single server process's peak (the cluster rows sum three processes: reported, not judged).
  const loadPeak = Math.max(0, ...m.endpoints.map((e) => e.result.peakRssMiB));
  const rssMax = Math.max(loadPeak, m.replace?.peakRssMiB ?? 0, m.rss.hwm);
  const putPart = m.replace
    ? `, during the PUTs ${mib(m.replace.peakRssMiB)} MiB (each ${int(m.replace.members)}-member answer is ${(m.replace.responseBytes / 2 ** 20).toFixed(1)} MiB of JSON)`
    : '';
  lines.push(
    '',
    `- Server RSS (VmRSS sampled every 200 ms): ${mib(m.rss.idle)} MiB idle after start, peak during the autocannon rows ${mib(loadPeak)} MiB${putPart}; ` +
      `VmHWM at the end ${mib(m.rss.hwm)} MiB. Target ≤ ${RSS_TARGET_MIB} MiB at every moment: ${met(rssMax <= RSS_TARGET_MIB)}` +
      `${loadPeak <= RSS_TARGET_MIB && rssMax > RSS_TARGET_MIB ? ' (met under the autocannon loads, exceeded by the 100,000-id PUTs)' : ''}` +
      `${m.cluster ? '; the WEB_CONCURRENCY=2 rows show the sum over the primary and its two workers' : ''}.`,
    `- Server log lines at level error or above: ${m.serverErrors}.`,
  );
  return lines.join('\n');
}

const TEMPLATE = `# Benchmark results

Produced by \`npm run bench\` (see bench/run.ts); each section below is replaced by
\`npm run bench -- --db DIALECT --write\`.

## Notes
`;

/** Replaces (or adds, before the Notes) the marked section for one dialect in RESULTS.md. */
export function writeSection(file: string, key: string, markdown: string): void {
  const start = `<!-- bench:${key} -->`;
  const end = `<!-- /bench:${key} -->`;
  const block = `${start}\n${markdown.trim()}\n${end}`;
  let text = existsSync(file) ? readFileSync(file, 'utf8') : TEMPLATE;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from >= 0 && to > from) {
    text = text.slice(0, from) + block + text.slice(to + end.length);
  } else {
    const notes = text.indexOf('\n## Notes');
    text = notes >= 0 ? `${text.slice(0, notes)}\n${block}\n${text.slice(notes)}` : `${text}\n${block}\n`;
  }
  writeFileSync(file, text);
}
