import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// Which test files the PostgreSQL + Redis run (vitest.config.ts) can leave to `npm test`: the run
// differs from `npm test` only in TEST_DATABASE_URL and TEST_REDIS_URL, so a file that never
// reads them, nor imports anything that does, runs exactly as it did on SQLite.

const READS_THE_DIALECT = /\bTEST_(?:DATABASE|REDIS)_URL\b/;
// Relative imports: `from './x.js'`, `import './x.js'`, `import('./x.js')`.
const RELATIVE_IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/**
 * The `*.test.ts` files under `dirs` (folders in `skip` left out) that neither read
 * TEST_DATABASE_URL or TEST_REDIS_URL nor import, through any chain of relative imports, a file
 * that does. A file with an import this cannot follow counts as reading them (it stays in both
 * runs). Paths relative to `root`.
 */
export function filesIndependentOfTheDialect(root: string, dirs: string[], skip: string[]): string[] {
  const read = new Map<string, { reads: boolean; imports: (string | undefined)[] }>();
  const readFile = (file: string) => {
    let known = read.get(file);
    if (!known) {
      const source = readFileSync(file, 'utf8');
      known = {
        reads: READS_THE_DIALECT.test(source),
        imports: [...source.matchAll(RELATIVE_IMPORT)].map(([, specifier]) =>
          resolveImport(dirname(file), specifier as string),
        ),
      };
      read.set(file, known);
    }
    return known;
  };
  // Every file the test file reaches, until one reads the variables or cannot be followed.
  const independent = (testFile: string) => {
    const seen = new Set([testFile]);
    const queue = [testFile];
    for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
      const { reads, imports } = readFile(file);
      if (reads) return false;
      for (const imported of imports) {
        if (imported === undefined) return false;
        if (!seen.has(imported)) {
          seen.add(imported);
          queue.push(imported);
        }
      }
    }
    return true;
  };
  return dirs
    .flatMap((dir) =>
      testFiles(
        resolve(root, dir),
        skip.map((s) => resolve(root, s)),
      ),
    )
    .filter(independent)
    .map((file) => relative(root, file))
    .sort();
}

function testFiles(dir: string, skip: string[]): string[] {
  if (skip.includes(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return entry === 'node_modules' ? [] : testFiles(path, skip);
    return entry.endsWith('.test.ts') ? [path] : [];
  });
}

/** `./x.js` written for TypeScript's NodeNext resolution is `./x.ts` (or `.tsx`) on disk. */
function resolveImport(from: string, specifier: string): string | undefined {
  const path = resolve(from, specifier);
  const candidates = [
    path.replace(/\.js$/, '.ts'),
    path.replace(/\.js$/, '.tsx'),
    path,
    `${path}.ts`,
    join(path, 'index.ts'),
  ];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}
