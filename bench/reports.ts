import { randomBytes } from 'node:crypto';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createTransport } from 'nodemailer';
import { parseGrants } from '../src/core/auth/permissions.js';
import { type Dialect, openDatabase } from '../src/core/db/database.js';
import { migrateToLatest } from '../src/core/db/migrate.js';
import { createAccount } from '../src/modules/access/accounts/accounts.service.js';
import { createKey, MAX_RATE_LIMIT } from '../src/modules/access/keys/keys.service.js';
import { freePort } from '../test/helpers/server-process.js';
import { insertEmployees } from './employees.js';
import { type LoadResult, runLoad } from './load.js';
import { cpuMsOf, gitRevision, ROOT, startProcess, TMP } from './processes.js';
import { writeSection } from './report.js';
import { createBenchDatabase, DEFAULT_POSTGRES_URL } from './seed.js';

/**
 * Reports of real mail under load (issue 22): a 50 KiB reported message through the Customer API
 * (`POST /customer/reports/`, the add-in's JSON) and through the reporting address (SMTP), each
 * alone at full speed (reports per second, and the server's CPU per report: steady whatever else
 * the machine does), then at a fixed 100 reports a second beside a load of the API, whose p99 is
 * compared with the same load alone.
 *
 *   npm run bench:reports [-- --db sqlite|postgres|both --duration S --write]
 */

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    duration: { type: 'string', default: '10' },
    rate: { type: 'string', default: '100' },
    write: { type: 'boolean', default: false },
  },
});

const DURATION_S = Number(args.duration);
const RATE = Number(args.rate);
const PEOPLE = 2000;
const postgresUrl = process.env.BENCH_DATABASE_URL || DEFAULT_POSTGRES_URL;
const dialects: Dialect[] = args.db === 'both' ? ['sqlite', 'postgres'] : [args.db as Dialect];
const LABEL: Record<Dialect, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

function say(message: string): void {
  console.error(`[bench:reports] ${message}`);
}

/** A 50 KiB phishing message, each one different (its own subject and link), as real reports are. */
function message(i: number): Buffer {
  const id = randomBytes(6).toString('hex');
  const paragraph = `<p>Dear colleague, your mailbox storage is almost full. To keep receiving mail, confirm your account within 24 hours at <a href="https://login-${id}.mail-secure.example/verify?u=${i}">the portal</a>. Regards, IT Service Desk.</p>\n`;
  let html = '';
  while (html.length < 50 * 1024) html += paragraph;
  return Buffer.from(
    [
      'From: IT Service Desk <helpdesk@mail-secure.example>',
      'To: staff@bench.example.com',
      `Subject: Mailbox full ${id}`,
      `Message-ID: <${id}@mail-secure.example>`,
      'Date: Wed, 02 Dec 2026 09:00:00 +0000',
      'MIME-Version: 1.0',
      'Content-Type: text/html; charset=utf-8',
      '',
      html,
    ].join('\r\n'),
  );
}

/** Sends `next()` reports, as fast as `concurrency` allow or at `rate` a second, for `seconds`. */
async function drive(
  send: (i: number) => Promise<boolean>,
  options: { seconds: number; concurrency?: number; rate?: number },
): Promise<{ sent: number; failed: number; seconds: number }> {
  const start = Date.now();
  const end = start + options.seconds * 1000;
  let i = 0;
  let sent = 0;
  let failed = 0;
  const one = async () => {
    const ok = await send(i++).catch(() => false);
    if (ok) sent++;
    else failed++;
  };
  if (options.rate !== undefined) {
    const pending: Promise<void>[] = [];
    const interval = 1000 / options.rate;
    for (let k = 0; Date.now() < end; k++) {
      const due = start + k * interval;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      pending.push(one());
    }
    await Promise.all(pending);
  } else {
    await Promise.all(
      Array.from({ length: options.concurrency ?? 4 }, async () => {
        while (Date.now() < end) await one();
      }),
    );
  }
  return { sent, failed, seconds: (Date.now() - start) / 1000 };
}

interface Row {
  what: string;
  reportsPerSecond: number;
  cpuMsPerReport: number;
  failed: number;
}

async function benchDialect(dialect: Dialect): Promise<string> {
  const database = await createBenchDatabase(dialect, postgresUrl);
  const opened = openDatabase(database.url);
  const db = opened.db;
  await migrateToLatest(db);
  const account = await createAccount(db, { name: 'Bench reports' });
  const reportKey = (
    await createKey(db, {
      accountId: account.id,
      name: 'report button',
      permissions: parseGrants(['reports:w']),
      rateLimit: MAX_RATE_LIMIT,
    })
  ).key;
  const apiKey = (
    await createKey(db, {
      accountId: account.id,
      name: 'api',
      permissions: parseGrants(['employees:r']),
      rateLimit: MAX_RATE_LIMIT,
    })
  ).key;
  await insertEmployees(db, account.id, PEOPLE, (i) => ({
    first_name: `Person${i}`,
    last_name: 'Bench',
    email: `person${i}@bench.example.com`,
  }));
  const reportingId = 'benchbench';
  await db
    .insertInto('reporting_settings')
    .values({ account_id: account.id, reporting_id: reportingId, updated_at: Date.now() })
    .execute();
  await opened.close();

  const smtpPort = await freePort();
  const server = await startProcess({
    args: ['dist/server.js'],
    env: {
      NODE_ENV: 'production',
      DATABASE_URL: database.url,
      WORKERS: 'off',
      LOG_LEVEL: 'warn',
      REPORT_SMTP_PORT: String(smtpPort),
      REPORT_SMTP_HOST: '127.0.0.1',
      REPORT_DOMAIN: 'reports.bench.example',
      REPORT_SMTP_CONNECTIONS_PER_ADDRESS: '50',
    },
    readyPath: '/readyz',
    logFile: join(TMP, `server-reports-${dialect}.log`),
  });
  // Each person may report 30 messages an hour: the reports take the people in turn.
  let person = 0;
  const reporter = () => `person${person++ % PEOPLE}@bench.example.com`;
  const viaApi = async (i: number) => {
    const res = await fetch(`${server.baseUrl}/api/api_gateway/customer/reports/`, {
      method: 'POST',
      headers: { apikey: reportKey, 'content-type': 'application/json' },
      body: JSON.stringify({ reporter: reporter(), eml: message(i).toString('base64') }),
    });
    await res.arrayBuffer();
    return res.status === 202;
  };
  const smtp = createTransport({
    host: '127.0.0.1',
    port: smtpPort,
    secure: false,
    pool: true,
    maxConnections: 4,
    maxMessages: Infinity,
    ignoreTLS: true,
  });
  const viaSmtp = async (i: number) => {
    const from = reporter();
    await smtp.sendMail({
      envelope: { from, to: `report+${reportingId}@reports.bench.example` },
      raw: forwarded(from, message(i)),
    });
    return true;
  };
  const rows: Row[] = [];
  const measure = async (what: string, send: (i: number) => Promise<boolean>, rate?: number) => {
    await drive(send, { seconds: 2, ...(rate ? { rate } : { concurrency: 4 }) }); // warm-up
    const before = cpuMsOf(server.pid);
    const result = await drive(send, { seconds: DURATION_S, ...(rate ? { rate } : { concurrency: 4 }) });
    const cpu = cpuMsOf(server.pid) - before;
    rows.push({
      what,
      reportsPerSecond: result.sent / result.seconds,
      cpuMsPerReport: cpu / Math.max(1, result.sent),
      failed: result.failed,
    });
    say(
      `${LABEL[dialect]} ${what}: ${(result.sent / result.seconds).toFixed(1)}/s, ${(cpu / Math.max(1, result.sent)).toFixed(2)} ms CPU each, ${result.failed} failed`,
    );
  };
  await measure('API (JSON, add-in)', viaApi);
  await measure('reporting address (SMTP)', viaSmtp);

  // The API's p99 alone, then beside RATE reports a second (API and SMTP half each).
  const apiLoad = (label: string) =>
    runLoad(
      {
        label,
        baseUrl: server.baseUrl,
        pid: server.pid,
        expectedStatus: 200,
        request: {
          method: 'GET',
          path: '/api/api_gateway/customer/employees/?page_size=10',
          headers: { apikey: apiKey },
        },
        connections: 4,
      },
      { connections: 4, duration: DURATION_S, warmup: 2 },
    );
  const alone = await apiLoad('API alone');
  const beside = await Promise.all([
    apiLoad(`API beside ${RATE} reports/s`),
    drive(async (i) => (i % 2 === 0 ? viaApi(i) : viaSmtp(i)), { seconds: DURATION_S + 2, rate: RATE }),
  ]);
  const withReports: LoadResult = beside[0];
  const reportsDone = beside[1];
  smtp.close();
  await server.stop();
  await database.drop();

  const lines = [
    `### ${LABEL[dialect]}`,
    '',
    '| reports of a 50 KiB message | reports/s | server CPU per report | refused or failed |',
    '|---|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.what}, 4 at a time | ${r.reportsPerSecond.toFixed(1)} | ${r.cpuMsPerReport.toFixed(2)} ms | ${r.failed} |`,
    ),
    '',
    `| API load (GET /customer/employees/, 4 connections) | req/s | p50 | p99 | server CPU per request |`,
    '|---|---:|---:|---:|---:|',
    `| alone | ${alone.reqPerSec.toFixed(0)} | ${alone.p50} ms | ${alone.p99} ms | ${alone.cpuMsPerRequest.toFixed(3)} ms |`,
    `| beside ${RATE} reports/s (${(reportsDone.sent / reportsDone.seconds).toFixed(1)} achieved, ${reportsDone.failed} failed) | ${withReports.reqPerSec.toFixed(0)} | ${withReports.p50} ms | ${withReports.p99} ms | ${withReports.cpuMsPerRequest.toFixed(3)} ms |`,
    '',
    `p99 moved by ${(withReports.p99 - alone.p99).toFixed(0)} ms (target: at most 5 ms). Beside the reports, the server's CPU per API request counts the reports' CPU too; the client (autocannon, the report senders) runs on the same two cores, so req/s falls with it.`,
    '',
  ];
  return lines.join('\n');
}

/** The reported message forwarded by a person as an attachment, as a reporting mailbox receives it. */
function forwarded(from: string, original: Buffer): string {
  const boundary = `b${randomBytes(6).toString('hex')}`;
  return [
    `From: <${from}>`,
    'To: security@bench.example.com',
    'Subject: Phishing: Mailbox full',
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    'This message was reported as phishing.',
    `--${boundary}`,
    'Content-Type: message/rfc822',
    'Content-Disposition: attachment; filename="original.eml"',
    '',
    original.toString(),
    `--${boundary}--`,
    '',
  ].join('\r\n');
}

const sections: string[] = [];
for (const dialect of dialects) sections.push(await benchDialect(dialect));
const header = [
  `Measured ${new Date().toISOString().slice(0, 10)} at ${gitRevision()}, ${availableParallelism()} × ${cpus()[0]?.model ?? 'CPU'}, load ${loadavg()[0]?.toFixed(1)} at the end; the server one process (WORKERS=off), its reading threads included in its CPU.`,
  '',
];
const text = [...header, ...sections].join('\n');
console.log(text);
if (args.write)
  writeSection(resolve(ROOT, 'bench/RESULTS.md'), 'reports', `## Reports of real mail (issue 22)\n\n${text}`);
