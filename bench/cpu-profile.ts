import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, TMP } from './processes.js';

/**
 * `node --import tsx bench/cpu-profile.ts [FILE.cpuprofile]`: where the server spent its CPU
 * time in a `npm run bench -- --cpu-prof` run (the newest profile in bench/.tmp/prof by
 * default), by function and by package (self time); with `--inclusive a,b` also the time spent
 * inside the named functions, callees included.
 */

interface Node {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

function newestProfile(): string {
  const dir = join(TMP, 'prof');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(dir, f));
  if (files.length === 0) throw new Error(`no .cpuprofile in ${dir}`);
  return files.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0] as string;
}

function where(url: string): string {
  if (!url) return '(native)';
  const path = url.replace(/^file:\/\//, '');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (pkg) return pkg[1] as string;
  if (path.startsWith('node:')) return 'node';
  return relative(ROOT, path);
}

const { values: options, positionals } = parseArgs({
  options: { inclusive: { type: 'string', default: '' } },
  allowPositionals: true,
});
const file = positionals[0] ?? newestProfile();
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfMs = new Map<number, number>();
profile.samples.forEach((id, i) => {
  selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
});

const byFunction = new Map<string, number>();
const byPlace = new Map<string, number>();
let total = 0;
for (const [id, ms] of selfMs) {
  const node = byId.get(id);
  if (!node) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const place = where(url);
  const file = url.includes('node_modules') ? `${place}/${url.split('/').pop()}` : place;
  const name = `${functionName || '(anonymous)'} ${file}${url ? `:${lineNumber + 1}` : ''}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
  byPlace.set(place, (byPlace.get(place) ?? 0) + ms);
  total += ms;
}

const top = (map: Map<string, number>, n: number) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(
      ([name, ms]) =>
        `${((ms / total) * 100).toFixed(1).padStart(5)} %  ${ms.toFixed(0).padStart(7)} ms  ${name}`,
    )
    .join('\n');

console.log(
  `${relative(ROOT, file)}: ${total.toFixed(0)} ms sampled\n\nby package/file:\n${top(byPlace, 20)}`,
);
console.log(`\nby function (self time):\n${top(byFunction, 40)}`);

const names = options.inclusive?.split(',').filter(Boolean) ?? [];
if (names.length > 0) {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const inclusive = new Map<string, number>(names.map((n) => [n, 0]));
  for (const [id, ms] of selfMs) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = byId.get(at)?.callFrame.functionName ?? '';
      if (inclusive.has(name)) seen.add(name);
    }
    for (const name of seen) inclusive.set(name, (inclusive.get(name) ?? 0) + ms);
  }
  console.log(`\ninclusive (callees included):\n${top(inclusive, names.length)}`);
}
