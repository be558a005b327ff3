import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from './database.js';

// The SQLite driver's write transactions share commits (a savepoint each inside one open SQLite
// transaction): what one does is kept or undone alone, and a long one is answered without
// waiting for the next writer's run.

const opened: Array<{ database: Database; folder: string }> = [];
afterEach(async () => {
  for (const { database, folder } of opened.splice(0)) {
    await database.close();
    rmSync(folder, { recursive: true, force: true });
  }
});

async function fileDatabase(): Promise<Database> {
  const folder = mkdtempSync(join(tmpdir(), 'vigil-driver-'));
  const database = openDatabase(`sqlite:${join(folder, 'v.db')}`, { waitMs: 5000 });
  opened.push({ database, folder });
  await sql`create table notes (id integer primary key, text text not null unique)`.execute(database.db);
  return database;
}

const texts = async (database: Database) =>
  (await sql<{ text: string }>`select text from notes order by text`.execute(database.db)).rows.map(
    (r) => r.text,
  );
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SQLite write transactions', () => {
  it('keep what each committed and undo only the one that failed, when they run at once', async () => {
    const database = await fileDatabase();
    const results = await Promise.allSettled(
      ['a', 'b', 'dup', 'dup', 'c'].map((text) =>
        database.db.transaction().execute(async (trx) => {
          await sql`insert into notes (text) values (${`${text}-1`})`.execute(trx);
          await sql`insert into notes (text) values (${text})`.execute(trx);
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect(await texts(database)).toEqual(['a', 'a-1', 'b', 'b-1', 'c', 'c-1', 'dup', 'dup-1']);
  });

  it('answer a long transaction once it is done, not after the next writer’s run', async () => {
    const database = await fileDatabase();
    const order: string[] = [];
    const long = database.db.transaction().execute(async (trx) => {
      await sql`insert into notes (text) values ('long')`.execute(trx);
      await sleep(50);
    });
    const next = database.db.transaction().execute(async (trx) => {
      await sql`insert into notes (text) values ('next')`.execute(trx);
      await sleep(300);
      order.push('next done');
    });
    await Promise.all([
      long.then(() => order.push('long answered')),
      next.then(() => order.push('next answered')),
    ]);
    expect(order).toEqual(['long answered', 'next done', 'next answered']);
    expect(await texts(database)).toEqual(['long', 'next']);
  });
});
