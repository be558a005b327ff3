import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  freezeMigrations,
  frozenMigrationProblems,
  MIGRATIONS_DIR,
  migrationChecksum,
  migrationFiles,
  readChecksums,
} from './migration-checksums.js';
import { migrations } from './migration-list.js';

// Migrations are immutable once landed (house style): a database that ran 0003 never runs it
// again, so an edit to 0003 reaches new databases only and the two kinds silently differ.

describe('landed migrations', () => {
  it('are unchanged since they landed', () => {
    const problems = frozenMigrationProblems();
    const message = problems
      .map(({ file, problem }) =>
        problem === 'missing'
          ? `src/core/db/migrations/${file} landed and has been removed or renamed.`
          : `src/core/db/migrations/${file} landed and has been changed since.`,
      )
      .join('\n');
    expect(
      problems,
      `${message}\nLanded migrations are immutable: databases that already ran them never run them again. ` +
        'Restore the file as it landed (git checkout origin/main -- src/core/db/migrations/<file>) and write the ' +
        'change as a new migration (the next number, listed in src/core/db/migration-list.ts). See docs/internals/migrations.md.',
    ).toEqual([]);
  });

  it('cover the first migrations and the landed list of them, and every listed file is of the folder', () => {
    const listed = Object.keys(readChecksums());
    expect(listed).toEqual(
      expect.arrayContaining(['0001_initial.ts', '0005_mail_send_phase.ts', 'index.ts']),
    );
    for (const file of listed) expect([...migrationFiles(MIGRATIONS_DIR), 'index.ts']).toContain(file);
  });

  it('are all run, in order', () => {
    expect(Object.keys(migrations).map((name) => `${name}.ts`)).toEqual(migrationFiles(MIGRATIONS_DIR));
  });
});

describe('the checksum list', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-migrations-'));
  const where = { dir, checksumsFile: join(dir, 'checksums.json') };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds an edit, a removal, and only adds checksums, never changes one', () => {
    writeFileSync(join(dir, '0001_one.ts'), 'export const up = 1;\n');
    writeFileSync(join(dir, '0002_two.ts'), 'export const up = 2;\r\n');
    writeFileSync(join(dir, 'index.ts'), '');
    writeFileSync(join(dir, 'checksums.json'), '{}\n');
    expect(freezeMigrations(['0001_one'], where)).toEqual(['0001_one.ts']);
    expect(frozenMigrationProblems(where)).toEqual([]);

    writeFileSync(join(dir, '0001_one.ts'), 'export const up = 11;\n');
    expect(frozenMigrationProblems(where)).toEqual([{ file: '0001_one.ts', problem: 'changed' }]);
    // Freezing again keeps the landed checksum: the edit stays visible.
    expect(freezeMigrations(['0001_one.ts', '0002_two.ts'], where)).toEqual(['0002_two.ts']);
    expect(frozenMigrationProblems(where)).toEqual([{ file: '0001_one.ts', problem: 'changed' }]);
    // Line endings do not count; the text does.
    expect(readChecksums(where)['0002_two.ts']).toBe(migrationChecksum('export const up = 2;\n'));

    rmSync(join(dir, '0002_two.ts'));
    expect(frozenMigrationProblems(where)).toContainEqual({ file: '0002_two.ts', problem: 'missing' });
    expect(() => freezeMigrations(['0003_none'], where)).toThrow(/no migration 0003_none\.ts/);
    expect(readFileSync(join(dir, 'checksums.json'), 'utf8')).toMatch(
      /^\{\n {2}"0001_one\.ts": "[0-9a-f]{64}",\n/,
    );
  });
});
