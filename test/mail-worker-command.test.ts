import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, describeDatabase } from '../src/core/db/database.js';
import { testEnv } from './helpers/app.js';
import { createTestDatabase, openMigrated, type TestDatabase } from './helpers/database.js';
import { campaignMessages, makeAccountRow, makeActiveCampaign } from './helpers/mail-fixtures.js';
import { countByRecipient, startSmtpServer } from './helpers/smtp.js';

// `vigil worker`: the background work without HTTP, as a real process, stopped by SIGTERM.

const ROOT = resolve(import.meta.dirname, '..');
let testDb: TestDatabase;
let db: Db;

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = (await openMigrated(testDb.url)).db;
});

afterAll(async () => {
  await db?.destroy();
  await testDb?.drop();
});

describe('vigil worker', () => {
  it('sends the queued mail with links to PUBLIC_URL, and stops cleanly on SIGTERM', async () => {
    const smtp = await startSmtpServer();
    const account = await makeAccountRow(db);
    const c = await makeActiveCampaign(db, account.id, { people: 5 });
    const child = spawn(process.execPath, [resolve(ROOT, 'bin/vigil.js'), 'worker'], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...testEnv(testDb.url, { SMTP_URL: smtp.url, PUBLIC_URL: 'https://training.example.com/' }),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    const deadline = Date.now() + 20_000;
    while (smtp.accepted.length < 5) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`worker did not send:\n${output}`);
      await delay(50);
    }
    // 'close', not 'exit': the last log lines may still be in the pipe when the process exits.
    const closed = once(child, 'close');
    child.kill('SIGTERM');
    const [code] = await closed;
    expect(code, output).toBe(0);

    const counts = countByRecipient(smtp.accepted);
    for (const email of c.emails) expect(counts.get(email)).toBe(1);
    expect(smtp.accepted[0]?.text).toContain('https://training.example.com/learn/');
    expect((await campaignMessages(db, c.campaignId)).every((m) => m.status === 'sent')).toBe(true);
    const lines = output
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((l) => l.msg)).toContain('stopping the background work');
    // The worker's output is its JSON log: the database it works on is named there.
    expect(lines.find((l) => l.msg === 'background work on this database')?.database).toBe(
      describeDatabase(testDb.url),
    );
    expect(output).not.toContain('"level":50'); // no errors
  });
});
