import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { LoadResult } from './load.js';
import { median, type ReplaceResult } from './replace.js';

/** Targets of issue 2, checked on SQLite; PostgreSQL rows show the same targets for comparison. */
export const TARGETS = {
  listRatio: 0.4,
  createRatio: 0.25,
  detailP50Ms: 25,
  replaceMs: 1000,
  rssMiB: 300,
};

export interface Measured {
  heading: string;
  meta: string[];
  baselines: LoadResult[];
  /** Each endpoint with its target, if it has one. */
  endpoints: {
    result: LoadResult;
    target?: { text: string; met: (r: LoadResult, ratio: number) => boolean };
  }[];
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

function replaceTable(replace: ReplaceResult): string[] {
  const lines = [
    '| request (sequential, one client) | runs | min ms | median ms | max ms | target | met? | bad |',
    '|---|---:|---:|---:|---:|---|---|---|',
  ];
  for (const [i, s] of replace.series.entries()) {
    const med = median(s.ms);
    // The target is on the real work: 100,000 new members.
    const target = i === 0 ? `≤ ${int(TARGETS.replaceMs)} ms` : '';
    const ok = i === 0 ? met(med <= TARGETS.replaceMs && s.bad === 0) : '';
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
  for (const { result: r, target } of m.endpoints) {
    const ratio = r.reqPerSec / base;
    const ok = target ? met(target.met(r, ratio) && r.bad === 0) : '';
    lines.push(
      `| ${r.label} | ${r.connections} | ${int(r.reqPerSec)} | ${r.p50} | ${r.p99} | ${(ratio * 100).toFixed(0)} % | ${target?.text ?? ''} | ${ok} | ${int(r.cpuMsPerRequest * 1000)} | ${mib(r.peakRssMiB)} | ${bad(r)} |`,
    );
  }
  if (m.replace) lines.push('', ...replaceTable(m.replace));
  const loadPeak = Math.max(0, ...m.endpoints.map((e) => e.result.peakRssMiB));
  const rssMax = Math.max(loadPeak, m.replace?.peakRssMiB ?? 0, m.rss.hwm);
  const putPart = m.replace
    ? `, during the PUTs ${mib(m.replace.peakRssMiB)} MiB (each ${int(m.replace.members)}-member answer is ${(m.replace.responseBytes / 2 ** 20).toFixed(1)} MiB of JSON)`
    : '';
  lines.push(
    '',
    `- Server RSS (VmRSS sampled every 200 ms): ${mib(m.rss.idle)} MiB idle after start, peak during the autocannon rows ${mib(loadPeak)} MiB${putPart}; ` +
      `VmHWM at the end ${mib(m.rss.hwm)} MiB. Target ≤ ${TARGETS.rssMiB} MiB at every moment: ${met(rssMax <= TARGETS.rssMiB)}` +
      `${loadPeak <= TARGETS.rssMiB && rssMax > TARGETS.rssMiB ? ' (met under the autocannon loads, exceeded by the 100,000-id PUTs)' : ''}.`,
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
