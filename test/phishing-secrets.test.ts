import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { testEnv } from './helpers/app.js';
import { createTestDatabase, dialectUnderTest, openMigrated } from './helpers/database.js';
import { makeAccount } from './helpers/factories.js';
import { BROWSER, seedPhishingCampaign } from './helpers/phishing.js';
import { type ServerProcess, startServer } from './helpers/server-process.js';

// The password test: a person submits a landing form with a password to a real server
// process; the value is found in no log line and nowhere in the database (SQLite: the database
// file, its WAL and shared memory; PostgreSQL: every column of every row of every table).

const servers: ServerProcess[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop('SIGKILL')));
});

describe('a submitted password', () => {
  it('is stored nowhere and logged nowhere', async () => {
    const testDb = await createTestDatabase();
    try {
      // Seed a running campaign straight into the database the server will use.
      const seeding = await openMigrated(testDb.url);
      const account = await makeAccount({ db: seeding.db } as FastifyInstance);
      const campaign = await seedPhishingCampaign({ db: seeding.db } as FastifyInstance, account.id, {
        people: 2,
        landing: 'teach_on_submit',
      });
      await seeding.close();

      const server = await startServer(testEnv(testDb.url, { LOG_LEVEL: 'trace' }));
      servers.push(server);
      const password = `Pw${randomBytes(16).toString('hex')}`;
      const username = `user${randomBytes(6).toString('hex')}`;
      const [a, b] = campaign.people;
      const headers = { 'user-agent': BROWSER };

      const landing = await fetch(`${server.baseUrl}/v/${a!.token}`, { headers });
      expect(landing.status).toBe(200);
      expect(await landing.text()).toContain('<form');
      const submit = await fetch(`${server.baseUrl}/v/${a!.token}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username, password }).toString(),
        redirect: 'manual',
      });
      expect(submit.status).toBe(303);
      expect(await submit.text()).not.toContain(password);
      const learn = await fetch(new URL(submit.headers.get('location') ?? '', server.baseUrl), { headers });
      expect(learn.status).toBe(200);
      expect(await learn.text()).not.toContain(password);
      // The same as multipart, as JSON, and in a wrong token's form: nothing of them is kept either.
      const form = new FormData();
      form.set('password', password);
      await fetch(`${server.baseUrl}/v/${b!.token}`, {
        method: 'POST',
        headers,
        body: form,
        redirect: 'manual',
      });
      await fetch(`${server.baseUrl}/v/${b!.token}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ password }),
        redirect: 'manual',
      });
      await fetch(`${server.baseUrl}/v/not-a-token`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        body: `password=${password}`,
      });
      expect(await server.stop('SIGTERM')).toBe(0);

      const output = server.output();
      expect(output).toContain('request completed');
      expect(output).not.toContain(password);

      const check = await openMigrated(testDb.url);
      try {
        const events = await check.db
          .selectFrom('phishing_events')
          .select(['kind', 'field_names'])
          .where('recipient_id', '=', a!.id)
          .orderBy('id')
          .execute();
        expect(events).toEqual([
          { kind: 'clicked', field_names: null },
          { kind: 'submitted', field_names: JSON.stringify(['username', 'password']) },
        ]);
        if (dialectUnderTest === 'postgres') {
          const tables = await sql<{ table_name: string }>`select table_name from information_schema.tables
            where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(check.db);
          expect(tables.rows.length).toBeGreaterThan(20);
          for (const { table_name } of tables.rows) {
            const rows = await sql<{
              row: string;
            }>`select t::text as row from ${sql.table(table_name)} t`.execute(check.db);
            for (const r of rows.rows)
              expect([table_name, r.row.includes(password)]).toEqual([table_name, false]);
          }
        }
      } finally {
        await check.close();
      }
      if (dialectUnderTest === 'sqlite') {
        const file = testDb.url.slice('sqlite:'.length);
        let read = 0;
        const all: Buffer[] = [];
        for (const path of [file, `${file}-wal`, `${file}-shm`]) {
          if (!existsSync(path)) continue;
          const bytes = readFileSync(path);
          read += bytes.length;
          all.push(bytes);
          expect([path, bytes.includes(Buffer.from(password))]).toEqual([path, false]);
          expect([path, bytes.includes(Buffer.from(password, 'utf16le'))]).toEqual([path, false]);
        }
        expect(read).toBeGreaterThan(0);
        // The check itself finds what is there: the username's field name is.
        expect(Buffer.concat(all).includes(Buffer.from('["username","password"]'))).toBe(true);
      }
    } finally {
      await testDb.drop();
    }
  }, 120_000);
});
