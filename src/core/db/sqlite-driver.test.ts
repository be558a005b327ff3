import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompiledQuery, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from './database.js';
import { type CommitBatch, withCommitWork } from './together.js';

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

describe('SQLite single writes with work for their commit', () => {
  // Each write's item (its text) goes to one batch, run once before the commit: it logs them.
  const logged: CommitBatch<string> = {
    run: (items, run) => {
      run(CompiledQuery.raw('insert into log (items) values (?)', [items.join(',')]));
    },
  };
  const failing: CommitBatch<string> = {
    run: () => {
      throw new Error('the work failed');
    },
  };
  const insertNote = (database: Database, text: string, batch: CommitBatch<string>) =>
    database.db.executeQuery(
      withCommitWork(CompiledQuery.raw('insert into notes (text) values (?) returning text', [text]), {
        batch,
        item: (result) => (result.rows[0] as { text: string }).text,
      }),
    );
  const logOf = async (database: Database) =>
    (await sql<{ items: string }>`select items from log order by id`.execute(database.db)).rows.map(
      (r) => r.items,
    );
  async function withLog(): Promise<Database> {
    const database = await fileDatabase();
    await sql`create table log (id integer primary key, items text not null)`.execute(database.db);
    await sql`insert into notes (text) values ('dup')`.execute(database.db);
    return database;
  }

  it('do it once a commit, with the items of the writes that succeeded', async () => {
    const database = await withLog();
    const results = await Promise.allSettled(
      ['a', 'dup', 'b', 'c'].map((text) => insertNote(database, text, logged)),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(await logOf(database)).toEqual(['a,b,c']);
    expect(await texts(database)).toEqual(['a', 'b', 'c', 'dup']);
  });

  it('fail every write of the commit, and keep none, when the work fails', async () => {
    const database = await withLog();
    const results = await Promise.allSettled(['a', 'b'].map((text) => insertNote(database, text, failing)));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await texts(database)).toEqual(['dup']);
    // The writer is free again: the next write commits.
    await insertNote(database, 'c', logged);
    expect(await texts(database)).toEqual(['c', 'dup']);
    expect(await logOf(database)).toEqual(['c']);
  });

  it('do it at once inside a transaction, which keeps or undoes it with the rest', async () => {
    const database = await withLog();
    await database.db.transaction().execute(async (trx) => {
      await trx.executeQuery(
        withCommitWork(CompiledQuery.raw("insert into notes (text) values ('t') returning text", []), {
          batch: logged,
          item: (result) => (result.rows[0] as { text: string }).text,
        }),
      );
      expect((await sql<{ n: number }>`select count(*) as n from log`.execute(trx)).rows[0]?.n).toBe(1);
    });
    await expect(
      database.db.transaction().execute(async (trx) => {
        await trx.executeQuery(
          withCommitWork(CompiledQuery.raw("insert into notes (text) values ('u') returning text", []), {
            batch: logged,
            item: (result) => (result.rows[0] as { text: string }).text,
          }),
        );
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await logOf(database)).toEqual(['t']);
    expect(await texts(database)).toEqual(['dup', 't']);
  });
});
