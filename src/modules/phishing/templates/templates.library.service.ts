import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { FieldErrorCollector } from '../../../core/errors.js';
import { fromProjectRoot } from '../../../core/paths.js';
import {
  PHISHING_CATEGORIES,
  type PhishingTemplateContent,
  RED_FLAG_PARTS,
  readTemplateInput,
} from './templates.rules.model.js';

/**
 * The built-in phishing template library: `content/phishing/<slug>/` holds `template.json`,
 * `email.html`, `email.txt` and the landing page it names. Every template is checked as it is
 * read, by the same rules as an administrator's (templates.rules.model.ts): a broken one
 * fails with a message naming its folder and the problem, and the server does not start.
 */

export const PHISHING_LIBRARY_ROOT = fromProjectRoot('content', 'phishing');

const TemplateFile = Type.Object(
  {
    slug: Type.String({ pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' }),
    name: Type.String({ minLength: 1 }),
    summary: Type.String({ minLength: 1, maxLength: 300 }),
    difficulty: Type.Integer({ minimum: 1, maximum: 5 }),
    category: Type.Union(PHISHING_CATEGORIES.map((c) => Type.Literal(c))),
    language: Type.String(),
    subject: Type.String(),
    sender_name: Type.String(),
    sender_address: Type.String({ description: 'The part before the @; the domain is the campaign’s.' }),
    landing_page: Type.String({ pattern: '^[\\w-]+\\.html$' }),
    red_flags: Type.Array(
      Type.Object(
        {
          text: Type.String(),
          part: Type.Union(RED_FLAG_PARTS.map((p) => Type.Literal(p))),
          quote: Type.String(),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/** A built-in template: its content, the slug that names it and a line for the library's list. */
export interface LibraryTemplate extends PhishingTemplateContent {
  slug: string;
  summary: string;
}

/**
 * A built-in template that cannot be used. Its `code` makes the server print it as the one line
 * `vigil: could not start: <message> (PHISHING_LIBRARY_INVALID)`.
 */
export class PhishingLibraryError extends Error {
  readonly code = 'PHISHING_LIBRARY_INVALID';
}

function readText(folder: string, file: string): string {
  const path = join(folder, file);
  if (!existsSync(path)) throw new PhishingLibraryError(`phishing template ${folder}: ${file} is missing`);
  return readFileSync(path, 'utf8');
}

function loadTemplate(folder: string): LibraryTemplate {
  const fail = (problem: string) => new PhishingLibraryError(`phishing template ${folder}: ${problem}`);
  let data: unknown;
  try {
    data = JSON.parse(readText(folder, 'template.json'));
  } catch (err) {
    if (err instanceof PhishingLibraryError) throw err;
    throw fail(`template.json: ${(err as Error).message}`);
  }
  const problem = Value.Errors(TemplateFile, data).First();
  if (problem) throw fail(`template.json: ${problem.path || '/'} ${problem.message}`);
  const file = data as Static<typeof TemplateFile>;
  if (file.slug !== folder.split(/[\\/]/).pop()) throw fail(`slug "${file.slug}" differs from its folder`);

  const errors = new FieldErrorCollector();
  const content = readTemplateInput(errors, {
    ...file,
    html: readText(folder, 'email.html'),
    text: readText(folder, 'email.txt'),
    landing_html: readText(folder, file.landing_page),
  });
  const problems = Object.entries(errors.fields).map(
    ([field, messages]) => `${field}: ${messages.join(', ')}`,
  );
  if (problems.length > 0) throw fail(problems.join('; '));
  return { ...content, slug: file.slug, summary: file.summary };
}

/** Every built-in template in `root`, in slug order, each checked. */
export function loadPhishingLibrary(root = PHISHING_LIBRARY_ROOT): LibraryTemplate[] {
  if (!existsSync(root)) throw new PhishingLibraryError(`phishing template library not found at ${root}`);
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => loadTemplate(join(root, name)));
}

let library: ReadonlyMap<string, LibraryTemplate> | undefined;

/** The built-in templates by slug, read once per process (`buildApp` reads them at start). */
export function builtInPhishingTemplates(): ReadonlyMap<string, LibraryTemplate> {
  library ??= new Map(loadPhishingLibrary().map((t) => [t.slug, t]));
  return library;
}
