import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { memoryOf, ROOT, startProcess, TMP } from './processes.js';

/**
 * Reported mail built to stall the server (issue 19, item 1), against a built server:
 *
 *   npx tsc -p tsconfig.build.json && node --import tsx bench/reported-mail.ts [-- --root DIR]
 *
 * `--root` names another checkout's built server (e.g. main's, for the figures before a change).
 * Each message goes to a fresh server process (SQLite in a temporary folder) while a poller asks
 * GET /healthz every 50 ms: the row shows the report's answer, how long it took, the worst
 * /healthz latency and the longest time between two /healthz answers while the report was being
 * read (the event loop's stall), and the process's resident memory before the report (VmRSS)
 * and at its peak (VmHWM, threads included). A report that takes longer than --give-up seconds is abandoned and its server
 * killed (its stall is then at least that long).
 */

const { values: args } = parseArgs({
  options: {
    root: { type: 'string', default: ROOT },
    'give-up': { type: 'string', default: '120' },
    only: { type: 'string', default: '' },
  },
});
const root = resolve(args.root as string);
const giveUpMs = Number(args['give-up']) * 1000;
const MiB = 1024 * 1024;
const token = () => randomBytes(24).toString('base64url');

/** The messages, given the phish URL of the server under test. */
const MESSAGES: Record<string, (phish: string) => Buffer> = {
  '30,000 dots': (_) => plain(`http://a/${'.'.repeat(30_000)}x`),
  '80,000 dots': (_) => plain(`http://a/${'.'.repeat(80_000)}x`),
  '9 MiB of dots': (_) => plain(`http://a/${'.'.repeat(9 * MiB)}x`),
  '180,000 tokens': (phish) => {
    // Ten attached messages of 9,000 header tokens each, 90,000 phish links in the text.
    const links = Array.from({ length: 90_000 }, () => `${phish}/v/${token()}`).join('\n');
    let raw = `From: a@example.com\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n`;
    raw += `--b\r\nContent-Type: text/plain\r\n\r\n${links}\r\n`;
    for (let i = 0; i < 10; i++) {
      const headers = Array.from({ length: 9_000 }, () => `X-Vigil-Simulation: ${token()}\r\n`).join('');
      raw += `--b\r\nContent-Type: message/rfc822\r\n\r\nFrom: b@example.com\r\n${headers}\r\nHi\r\n`;
    }
    return Buffer.from(`${raw}--b--\r\n`);
  },
};

function plain(body: string): Buffer {
  return Buffer.from(`From: a@example.com\r\nSubject: fwd\r\nContent-Type: text/plain\r\n\r\n${body}\r\n`);
}

function cli(env: NodeJS.ProcessEnv, cliArgs: string[]): Record<string, unknown> {
  const out = execFileSync(process.execPath, [join(root, 'bin/vigil.js'), ...cliArgs, '--json'], {
    cwd: root,
    env: { PATH: process.env.PATH, ...env },
  });
  return JSON.parse(out.toString());
}

interface Row {
  name: string;
  bytes: number;
  answer: string;
  reportMs: number;
  worstHealthMs: number;
  longestGapMs: number;
  idleRssMiB: number;
  peakRssMiB: number;
}

async function measure(name: string, make: (phish: string) => Buffer): Promise<Row> {
  const dir = join(TMP, `reported-mail-${randomBytes(4).toString('hex')}`);
  mkdirSync(dir, { recursive: true });
  const env = { DATABASE_URL: `sqlite:${join(dir, 'vigil.db')}`, LOG_LEVEL: 'warn', WORKERS: 'off' };
  const server = await startProcess({
    args: [join(root, 'dist/server.js')],
    env,
    readyPath: '/readyz',
    logFile: join(dir, 'server.log'),
  });
  try {
    const account = cli(env, ['account', 'create', '--name', 'Bench']);
    const { key } = cli(env, [
      'key',
      'create',
      '--account',
      String(account.id),
      '--name',
      'b',
      '--grant',
      'campaigns:rw',
    ]);
    const raw = make(server.baseUrl);
    const idleRssMiB = memoryOf(server.pid).rss;
    let answered = false;
    const stopPolling = new AbortController();
    let worstHealthMs = 0;
    let longestGapMs = 0;
    const poller = (async () => {
      let last = performance.now();
      while (!answered) {
        const started = performance.now();
        try {
          await fetch(`${server.baseUrl}/healthz`, { signal: stopPolling.signal });
        } catch {}
        const now = performance.now();
        worstHealthMs = Math.max(worstHealthMs, now - started);
        longestGapMs = Math.max(longestGapMs, now - last);
        last = now;
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const started = performance.now();
    let answer: string;
    try {
      const res = await fetch(`${server.baseUrl}/api/api_gateway/customer/campaigns/phishing/reports/`, {
        method: 'POST',
        headers: { apikey: String(key), 'content-type': 'message/rfc822' },
        body: raw,
        signal: AbortSignal.timeout(giveUpMs),
      });
      const body = (await res.json()) as { code?: string };
      answer = `${res.status} ${body.code ?? ''}`.trim();
    } catch {
      answer = `no answer in ${giveUpMs / 1000} s`;
    }
    const reportMs = performance.now() - started;
    answered = true;
    const peakRssMiB = memoryOf(server.pid).hwm;
    if (answer.startsWith('no answer')) {
      stopPolling.abort();
      process.kill(server.pid, 'SIGKILL'); // it cannot hear SIGTERM: its event loop is held
      longestGapMs = Math.max(longestGapMs, reportMs);
      worstHealthMs = Math.max(worstHealthMs, reportMs);
    } else await poller;
    return { name, bytes: raw.length, answer, reportMs, worstHealthMs, longestGapMs, idleRssMiB, peakRssMiB };
  } finally {
    await server.stop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}

const rows: Row[] = [];
for (const [name, make] of Object.entries(MESSAGES)) {
  if (args.only && !name.includes(args.only as string)) continue;
  const row = await measure(name, make);
  rows.push(row);
  console.error(`${name}: ${JSON.stringify(row)}`);
}
const f = (ms: number) =>
  ms >= 10_000 ? `${(ms / 1000).toFixed(0)} s` : `${Math.round(ms).toLocaleString('en')} ms`;
console.log(`Server: ${root}\n`);
console.log(
  '| message | size | answer | report took | worst /healthz | longest stall | RSS before | peak RSS |',
);
console.log('|---|---:|---|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(
    `| ${r.name} | ${(r.bytes / MiB).toFixed(2)} MiB | ${r.answer} | ${f(r.reportMs)} | ${f(r.worstHealthMs)} | ${f(r.longestGapMs)} | ${r.idleRssMiB.toFixed(0)} MiB | ${r.peakRssMiB.toFixed(0)} MiB |`,
  );
}
