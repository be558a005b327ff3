import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { type Db, type Dialect, openDatabase } from '../src/core/db/database.js';
import { migrateToLatest } from '../src/core/db/migrate.js';
import { queueCampaignMessages } from '../src/modules/mail/mail.queue.commands.js';
import {
  type MailTransport,
  outboxTransport,
  smtpTransport,
} from '../src/modules/mail/mail.transport.service.js';
import { MailWorker } from '../src/workers/mail-worker.js';
import { insertEmployees } from './employees.js';
import { gitRevision, ROOT } from './processes.js';
import { writeSection } from './report.js';
import { createBenchDatabase, DEFAULT_POSTGRES_URL } from './seed.js';

/**
 * The mail queue's send rate (issue 4: "the queue's send rate is measured"):
 *
 *   npm run bench:mail [-- --db sqlite|postgres|both --messages N --write]
 *
 * For each database: a fresh throwaway database with one active campaign of N enrolled
 * employees (bulk SQL) and N invitations queued. Then one mail worker (the production
 * MailWorker, in this process, send rate unlimited) drains the queue; each case starts from the
 * same N queued messages. Transports: the built-in outbox (no network: the queue's own cost)
 * and SMTP to a local smtp-server in its own process, with 1, 2 (the default) and 8 pooled
 * connections. Every case checks that all N are `sent` (and, for SMTP, that the server counted
 * N more messages). Prints a Markdown section; with --write it replaces the `mail` section of
 * bench/RESULTS.md.
 */

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'both' },
    messages: { type: 'string', default: '5000' },
    write: { type: 'boolean', default: false },
  },
});

const N = Number(args.messages);
const postgresUrl = process.env.BENCH_DATABASE_URL || DEFAULT_POSTGRES_URL;
const dialects: Dialect[] = args.db === 'both' ? ['sqlite', 'postgres'] : [args.db as Dialect];
if (!dialects.every((d) => d === 'sqlite' || d === 'postgres')) {
  throw new Error(`--db must be sqlite, postgres or both, got "${args.db}"`);
}
const LABEL: Record<Dialect, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
const CASES: { transport: 'outbox' | 'smtp'; connections: number }[] = [
  { transport: 'outbox', connections: 2 },
  { transport: 'smtp', connections: 1 },
  { transport: 'smtp', connections: 2 },
  { transport: 'smtp', connections: 8 },
];
const silent = { info() {}, warn() {}, error() {} };

function say(message: string): void {
  console.error(`[bench:mail] ${message}`);
}

async function seed(db: Db): Promise<number> {
  const now = Date.now();
  const account = await db
    .insertInto('accounts')
    .values({ name: 'Bench mail', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const campaign = await db
    .insertInto('training_campaigns')
    .values({
      account_id: account.id,
      name: 'Annual security awareness',
      status: 'active',
      start_at: now,
      due_at: now + 14 * 86_400_000,
      launched_at: now,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('campaign_courses')
    .values([
      { campaign_id: campaign.id, course_key: 'phishing', position: 0 },
      { campaign_id: campaign.id, course_key: 'passwords-and-mfa', position: 1 },
    ])
    .execute();
  await db.transaction().execute(async (trx) => {
    await insertEmployees(trx, account.id, N, (i) => ({
      first_name: `Learner${i}`,
      last_name: 'Bench',
      email: `learner${i}@bench.example.com`,
    }));
    await trx
      .insertInto('enrollments')
      .columns(['account_id', 'campaign_id', 'employee_id', 'enrolled_at'])
      .expression(
        trx
          .selectFrom('employees')
          .select([sql.lit(account.id).as('a'), sql.lit(campaign.id).as('c'), 'id', sql.lit(now).as('t')])
          .where('account_id', '=', account.id),
      )
      .execute();
    await queueCampaignMessages(trx, {
      accountId: account.id,
      campaignId: campaign.id,
      kind: 'invitation',
      now,
    });
  });
  await sql`analyze`.execute(db);
  return campaign.id;
}

/** Back to N queued messages, as if never sent. */
async function requeue(db: Db): Promise<void> {
  await db
    .updateTable('messages')
    .set({
      status: 'queued',
      attempts: 0,
      next_attempt_at: Date.now() - 1,
      locked_until: null,
      last_error: null,
      transport: null,
      to_address: null,
      subject: null,
      body_text: null,
      body_html: null,
      message_id: null,
      sent_at: null,
    })
    .execute();
  await sql`analyze`.execute(db);
}

async function sentCount(db: Db): Promise<number> {
  const row = await db
    .selectFrom('messages')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('status', '=', 'sent')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function ask<T>(child: ChildProcess, message: string): Promise<T> {
  const answer = once(child, 'message').then(([m]) => m as T);
  child.send(message);
  return answer;
}

interface Row {
  dialect: Dialect;
  transport: string;
  connections: number;
  batch: number;
  seconds: number;
  perSecond: number;
  cpuMsPerMessage: number;
}

async function measure(db: Db, dialect: Dialect, smtpUrl: string, sink: ChildProcess): Promise<Row[]> {
  const rows: Row[] = [];
  for (const c of CASES) {
    await requeue(db);
    const before = c.transport === 'smtp' ? (await ask<{ count: number }>(sink, 'count')).count : 0;
    const transport: MailTransport =
      c.transport === 'smtp'
        ? smtpTransport({ smtpUrl, concurrency: c.connections, timeoutMs: 60_000 })
        : outboxTransport();
    const worker = new MailWorker({
      db,
      transport,
      baseUrl: 'https://training.bench.example.com',
      from: 'Security training <training@bench.example.com>',
      ratePerMinute: 1e9, // unlimited: the queue's own speed
      concurrency: c.connections,
      maxAttempts: 8,
      retryBaseMs: 60_000,
      leaseMs: 120_000,
      linkTtlMs: 30 * 86_400_000,
      log: silent,
    });
    const batch = Math.min(50, Math.max(10, c.connections * 4));
    const cpu = process.cpuUsage();
    const start = performance.now();
    const totals = await worker.drain();
    const seconds = (performance.now() - start) / 1000;
    const used = process.cpuUsage(cpu);
    await transport.close();
    const sent = await sentCount(db);
    if (totals.sent !== N || sent !== N)
      throw new Error(`${c.transport}: sent ${totals.sent}, ${sent} in the db`);
    if (c.transport === 'smtp') {
      const after = (await ask<{ count: number }>(sink, 'count')).count;
      if (after - before !== N) throw new Error(`smtp server counted ${after - before}, expected ${N}`);
    }
    const row = {
      dialect,
      transport: c.transport,
      connections: c.connections,
      batch,
      seconds,
      perSecond: N / seconds,
      cpuMsPerMessage: (used.user + used.system) / 1000 / N,
    };
    say(`${LABEL[dialect]} ${c.transport} ×${c.connections}: ${row.perSecond.toFixed(0)} messages/s`);
    rows.push(row);
  }
  return rows;
}

const int = (n: number) => Math.round(n).toLocaleString('en');

function render(rows: Row[], loads: Record<string, string>, seedSeconds: Record<string, number>): string {
  const lines = [
    '## Mail queue send rate',
    '',
    `- ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, commit ${gitRevision()}`,
    `- machine: ${availableParallelism()} vCPU (${cpus()[0]?.model.trim()}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}; load average at start ${Object.entries(
      loads,
    )
      .map(([d, l]) => `${d} ${l}`)
      .join(', ')}`,
    `- ${int(N)} invitations queued for one active campaign of ${int(N)} enrolled employees (two courses), seeded by bulk SQL in ` +
      Object.entries(seedSeconds)
        .map(([d, s]) => `${s.toFixed(1)} s (${d})`)
        .join(', ') +
      '; each case starts from the same queue, `analyze`d',
    '- one `MailWorker` (the production code, in the benchmark process), send rate unlimited, draining until nothing is due: ' +
      'claim a batch (one UPDATE … RETURNING; `for update skip locked` on PostgreSQL), read what to render (one join), ' +
      "render and sign each link, send, record each outcome in one UPDATE. SMTP: nodemailer's pool to a local smtp-server " +
      'in its own process, which accepts everything; every case checked: all sent in the database, and the SMTP server counted them',
    '- worker CPU: user + system time of the benchmark process per message (for SMTP it includes nodemailer composing the MIME message)',
    '',
    '| database | transport | connections | batch | seconds | messages/s | worker CPU ms/message |',
    '|---|---|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    lines.push(
      `| ${LABEL[r.dialect]} | ${r.transport} | ${r.connections} | ${r.batch} | ${r.seconds.toFixed(2)} | ${int(r.perSecond)} | ${r.cpuMsPerMessage.toFixed(2)} |`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const sink = fork(resolve(ROOT, 'bench/smtp-sink.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [{ port }] = (await once(sink, 'message')) as [{ port: number }];
  const smtpUrl = `smtp://127.0.0.1:${port}`;
  const rows: Row[] = [];
  const loads: Record<string, string> = {};
  const seedSeconds: Record<string, number> = {};
  try {
    for (const dialect of dialects) {
      loads[LABEL[dialect]] = loadavg()
        .map((l) => l.toFixed(2))
        .join(' / ');
      const created = await createBenchDatabase(dialect, postgresUrl);
      const database = openDatabase(created.url);
      try {
        await migrateToLatest(database.db);
        const start = performance.now();
        await seed(database.db);
        seedSeconds[LABEL[dialect]] = (performance.now() - start) / 1000;
        say(`${LABEL[dialect]}: seeded ${N} queued invitations`);
        rows.push(...(await measure(database.db, dialect, smtpUrl, sink)));
      } finally {
        await database.close();
        await created.drop();
      }
    }
  } finally {
    sink.disconnect();
  }
  const markdown = render(rows, loads, seedSeconds);
  console.log(markdown);
  if (args.write) {
    writeSection(resolve(ROOT, 'bench/RESULTS.md'), 'mail', markdown);
    say('wrote the mail section of bench/RESULTS.md');
  }
}

await main();
