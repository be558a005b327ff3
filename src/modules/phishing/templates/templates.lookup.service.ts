import type { Db } from '../../../core/db/database.js';
import { AppError } from '../../../core/errors.js';
import { builtInPhishingTemplates, type LibraryTemplate } from './templates.library.service.js';
import { findTemplateRow, findTemplateRows, type PhishingTemplateRow } from './templates.repository.js';
import type { PhishingCategory, PhishingTemplateContent, RedFlag } from './templates.rules.model.js';

/**
 * Phishing templates by key: `builtin:<slug>` (the library's files) and `custom:<id>` (an
 * account's rows). What other areas call to use a template (`templatesByKeys`).
 */

export type TemplateSource = 'builtin' | 'custom';

/** A template as the admin API shows it (content as written, not rendered). */
export interface PhishingTemplateView {
  key: string;
  source: TemplateSource;
  summary: string;
  content: PhishingTemplateContent;
  cloned_from: string | null;
  created_at: number | null;
  updated_at: number | null;
}

export const builtInTemplateKey = (slug: string) => `builtin:${slug}`;
export const customTemplateKey = (id: number) => `custom:${id}`;

/** What a key names: a built-in slug or a row id; null for text that is no key. */
export function parseTemplateKey(
  key: string,
): { source: 'builtin'; slug: string } | { source: 'custom'; id: number } | null {
  const custom = /^custom:([1-9]\d{0,15})$/.exec(key);
  if (custom) {
    const id = Number(custom[1]);
    return Number.isSafeInteger(id) ? { source: 'custom', id } : null;
  }
  const builtIn = /^builtin:([a-z0-9]+(?:-[a-z0-9]+)*)$/.exec(key);
  return builtIn ? { source: 'builtin', slug: builtIn[1] as string } : null;
}

export const phishingTemplateNotFound = () => new AppError('phishing_template_not_found');

function contentOfRow(row: PhishingTemplateRow): PhishingTemplateContent {
  let red_flags: RedFlag[] = [];
  try {
    red_flags = JSON.parse(row.red_flags) as RedFlag[];
  } catch {
    // Written by this service only; an unreadable value shows as no flags rather than failing.
  }
  return {
    name: row.name,
    subject: row.subject,
    sender_name: row.sender_name,
    sender_address: row.sender_address,
    html: row.html,
    text: row.text,
    landing_html: row.landing_html,
    difficulty: row.difficulty,
    category: row.category as PhishingCategory,
    language: row.language,
    red_flags,
  };
}

export function viewOfRow(row: PhishingTemplateRow): PhishingTemplateView {
  return {
    key: customTemplateKey(row.id),
    source: 'custom',
    summary: row.summary,
    content: contentOfRow(row),
    cloned_from: row.cloned_from,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function viewOfBuiltIn(template: LibraryTemplate): PhishingTemplateView {
  const { slug, summary, ...content } = template;
  return {
    key: builtInTemplateKey(slug),
    source: 'builtin',
    summary,
    content,
    cloned_from: null,
    created_at: null,
    updated_at: null,
  };
}

/**
 * The templates of these keys that the account may use, by key; a key that names nothing of
 * the account's (unknown, malformed, another account's) is simply absent.
 */
export async function templatesByKeys(
  db: Db,
  accountId: number,
  keys: readonly string[],
): Promise<Map<string, { key: string; name: string; content: PhishingTemplateContent }>> {
  const found = new Map<string, { key: string; name: string; content: PhishingTemplateContent }>();
  const ids: number[] = [];
  for (const key of new Set(keys)) {
    const parsed = parseTemplateKey(key);
    if (parsed?.source === 'custom') ids.push(parsed.id);
    if (parsed?.source === 'builtin') {
      const template = builtInPhishingTemplates().get(parsed.slug);
      if (template) {
        const { content } = viewOfBuiltIn(template);
        found.set(key, { key, name: content.name, content });
      }
    }
  }
  for (const row of await findTemplateRows(db, accountId, ids)) {
    const content = contentOfRow(row);
    found.set(customTemplateKey(row.id), { key: customTemplateKey(row.id), name: row.name, content });
  }
  return found;
}

/** Whether the key names a template the account may use. */
export async function templateKeyExists(db: Db, accountId: number, key: string): Promise<boolean> {
  return (await templatesByKeys(db, accountId, [key])).has(key);
}

export async function getTemplate(db: Db, accountId: number, key: string): Promise<PhishingTemplateView> {
  const parsed = parseTemplateKey(key);
  if (parsed?.source === 'builtin') {
    const template = builtInPhishingTemplates().get(parsed.slug);
    if (template) return viewOfBuiltIn(template);
  } else if (parsed?.source === 'custom') {
    const row = await findTemplateRow(db, accountId, parsed.id);
    if (row) return viewOfRow(row);
  }
  throw phishingTemplateNotFound();
}
