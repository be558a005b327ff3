import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import ts from 'typescript';

/**
 * The boundary test: the rules of docs/ARCHITECTURE.md, read off the import graph of src/ (type-only
 * imports and re-exports included). Each failure names the file, the import and the rule.
 */

const SRC = join(import.meta.dirname, '..', '..', 'src');

/** Contexts, bottom-up: a context imports only core/ and the index.ts of the contexts before it. */
export const CONTEXTS = [
  'access',
  'directory',
  'mail',
  'campaigns',
  'training',
  'phishing',
  'integrations',
  'overview',
] as const;

/** Phishing's capabilities, bottom-up, by the same rule inside the context. */
const PHISHING = [
  'simulation',
  'settings',
  'templates',
  'campaigns',
  'delivery',
  'tracking',
  'results',
  'reports',
  'addin',
  'mailbox',
];

const ROLES = [
  'routes',
  'admin-routes',
  'schemas',
  'admin-schemas',
  'service',
  'commands',
  'repository',
  'presenter',
  'model',
  'subscribers',
  'mail',
  'test',
];

/** Calls of Kysely's builders and of its sql tag: what building SQL looks like. */
const SQL =
  /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(|\bsql(<[^>]*>)?`|\bsql\.(raw|ref|id|table|lit|join)\(/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(SRC, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

/** Every relative import, export-from and import() of a file, resolved to a path under src/. */
function importsOf(file: string, text: string): string[] {
  const info = ts.preProcessFile(text, true, true);
  return info.importedFiles
    .map((imported) => imported.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => posix.normalize(posix.join(posix.dirname(file), name)).replace(/\.js$/, '.ts'));
}

/** Where a file stands: its context and module under modules/, or the top folder it is in. */
function placeOf(file: string): { area: string; context?: string; module?: string; moduleDir?: string } {
  const parts = file.split('/');
  if (parts[0] !== 'modules') return { area: parts.length > 1 ? (parts[0] as string) : file };
  const context = parts[1] as string;
  const nested = parts.length > 3;
  const moduleDir = parts.slice(0, nested ? 3 : 2).join('/');
  return { area: 'modules', context, module: nested ? (parts[2] as string) : context, moduleDir };
}

function rank(context: string): number {
  return CONTEXTS.indexOf(context as (typeof CONTEXTS)[number]);
}

interface Violation {
  rule: string;
  file: string;
  detail: string;
}

export function findViolations(): Violation[] {
  const files = sourceFiles(SRC);
  const texts = new Map(files.map((file) => [file, readFileSync(join(SRC, file), 'utf8')]));
  const violations: Violation[] = [];
  const moduleEdges = new Map<string, Set<string>>();
  for (const file of files) {
    const text = texts.get(file) as string;
    const isTest = file.endsWith('.test.ts');
    const here = placeOf(file);
    const base = posix.basename(file);

    if (here.area === 'modules') {
      if (here.context && rank(here.context) < 0) {
        violations.push({ rule: 'contexts', file, detail: `${here.context} is not a context of the list` });
      }
      const roles = ROLES.join('|');
      const named = new RegExp(`^${here.module}(\\.[a-z0-9-]+)*\\.(${roles})\\.ts$`);
      if (base !== 'index.ts' && !named.test(base)) {
        violations.push({
          rule: 'names',
          file,
          detail: `expected ${here.module}.<what>.<role>.ts, the role one of ${ROLES.join(', ')}`,
        });
      }
    }
    if (!isTest && !file.startsWith('core/db/') && !base.endsWith('.repository.ts') && SQL.test(text)) {
      violations.push({ rule: 'sql', file, detail: 'builds SQL outside a *.repository.ts' });
    }
    if (isTest) continue;

    for (const target of importsOf(file, text)) {
      const there = placeOf(target);
      if (here.area === 'core' && there.area !== 'core') {
        violations.push({ rule: 'core', file, detail: `imports ${target}` });
      }
      if (here.area !== 'modules') continue;
      if (there.area !== 'modules' && there.area !== 'core') {
        violations.push({ rule: 'downward', file, detail: `imports ${target}, outside core/ and modules/` });
        continue;
      }
      if (there.area !== 'modules') continue;
      if (here.moduleDir !== there.moduleDir) {
        const edges = moduleEdges.get(here.moduleDir as string) ?? new Set<string>();
        edges.add(there.moduleDir as string);
        moduleEdges.set(here.moduleDir as string, edges);
      }
      if (there.context !== here.context) {
        if (rank(there.context as string) > rank(here.context as string)) {
          violations.push({ rule: 'downward', file, detail: `imports ${target}, of a higher context` });
        } else if (target !== `modules/${there.context}/index.ts`) {
          violations.push({
            rule: 'index',
            file,
            detail: `imports ${target}, not modules/${there.context}/index.ts`,
          });
        }
      } else if (here.context === 'phishing' && here.module !== 'phishing' && there.module !== here.module) {
        // (modules/phishing/index.ts, the context's face to the contexts above, re-exports any capability.)
        if (PHISHING.indexOf(there.module as string) > PHISHING.indexOf(here.module as string)) {
          violations.push({ rule: 'downward', file, detail: `imports ${target}, of a later capability` });
        }
      }
    }
    if (base === 'index.ts') {
      for (const target of importsOf(file, text)) {
        if (target.endsWith('.repository.ts')) {
          violations.push({ rule: 'index', file, detail: `exports from ${target}, a repository` });
        }
      }
    }
  }
  for (const [from, tos] of moduleEdges) {
    for (const to of tos) {
      if (from < to && moduleEdges.get(to)?.has(from)) {
        violations.push({ rule: 'mutual', file: from, detail: `${from} and ${to} import each other` });
      }
    }
  }
  return violations;
}

export const describeViolation = (v: Violation): string => `${v.rule}: ${v.file}: ${v.detail}`;

// `npx tsx test/helpers/boundaries.ts` lists what the boundary test finds.
if (process.argv[1] === import.meta.filename) console.log(findViolations().map(describeViolation).join('\n'));
