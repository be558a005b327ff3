import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Landed migrations are frozen: `migration-checksums.json` (beside this file, outside the
 * folder, whose files never change once landed) holds the SHA-256 of every file of
 * `migrations/` that has landed on main, `index.ts` included, and `migrations-frozen.test.ts`
 * (part of `npm test`) fails when one of them no longer matches. `npm run migrations:freeze --
 * NAME…` adds the checksum of a file once it lands; it never changes one already listed.
 */

export const MIGRATIONS_DIR = join(import.meta.dirname, 'migrations');

/** A folder of migrations and the list of its frozen files' checksums. */
export interface FrozenFolder {
  dir: string;
  checksumsFile: string;
}

const LANDED: FrozenFolder = {
  dir: MIGRATIONS_DIR,
  checksumsFile: join(import.meta.dirname, 'migration-checksums.json'),
};

/** SHA-256 (hex) of a migration's text, line endings as LF (a Windows checkout hashes the same). */
export function migrationChecksum(text: string): string {
  return createHash('sha256').update(text.replace(/\r\n/g, '\n')).digest('hex');
}

/** Migration files by name (`0001_initial.ts`), in the order they run; not `index.ts`. */
export function migrationFiles(dir = MIGRATIONS_DIR): string[] {
  return readdirSync(dir)
    .filter((name) => /^\d{4}_.*\.ts$/.test(name) && !name.endsWith('.test.ts'))
    .sort();
}

export function readChecksums(where = LANDED): Record<string, string> {
  return JSON.parse(readFileSync(where.checksumsFile, 'utf8')) as Record<string, string>;
}

export interface ChecksumProblem {
  file: string;
  problem: 'changed' | 'missing';
}

/** The landed migrations that were edited or removed since they landed. */
export function frozenMigrationProblems(where = LANDED): ChecksumProblem[] {
  const problems: ChecksumProblem[] = [];
  for (const [file, expected] of Object.entries(readChecksums(where))) {
    const path = join(where.dir, file);
    if (!existsSync(path)) problems.push({ file, problem: 'missing' });
    else if (migrationChecksum(readFileSync(path, 'utf8')) !== expected)
      problems.push({ file, problem: 'changed' });
  }
  return problems;
}

/**
 * Adds the checksums of these files of the folder (migrations, names with or without `.ts`, or
 * `index`) to the list; a file already listed is left as it is (its checksum is the one that
 * landed). Returns the files added.
 */
export function freezeMigrations(names: string[], where = LANDED): string[] {
  const checksums = readChecksums(where);
  const added: string[] = [];
  for (const name of names) {
    const file = name.endsWith('.ts') ? name : `${name}.ts`;
    if (!existsSync(join(where.dir, file))) throw new Error(`no migration ${file} in ${where.dir}`);
    if (checksums[file] !== undefined) continue;
    checksums[file] = migrationChecksum(readFileSync(join(where.dir, file), 'utf8'));
    added.push(file);
  }
  const sorted = Object.fromEntries(Object.entries(checksums).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(where.checksumsFile, `${JSON.stringify(sorted, null, 2)}\n`);
  return added;
}
