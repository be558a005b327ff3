import type { Db } from '../../db/database.js';
import { AppError, FieldErrorCollector, type FieldErrors } from '../../errors.js';
import { checkText, NAME_MAX } from '../../fields.js';
import { type ListPage, type ListWindow, readList } from '../../pagination.js';
import { foldForSearch } from '../../search-text.js';
import { getAccount } from '../accounts/accounts.service.js';
import { builtInPhishingTemplates, type LibraryTemplate } from './phishing.library.js';
import {
  type PhishingCategory,
  type PhishingTemplateContent,
  type RedFlag,
  readTemplateInput,
} from './phishing.template-rules.js';
import {
  campaignsUsingTemplate,
  deleteTemplateRow,
  findTemplateRow,
  findTemplateRows,
  insertTemplateRow,
  listTemplateSummaryRows,
  type PhishingTemplateRow,
  type PhishingTemplateSummaryRow,
  removeTemplateFromDrafts,
  updateTemplateRow,
} from './phishing.templates.repository.js';

/**
 * Phishing templates as an account sees them: the built-in library (`builtin:<slug>`, files)
 * and its own (`custom:<id>`, rows), listed, read, checked, created, changed, cloned and
 * deleted. Previews: phishing.templates.preview.ts.
 */

export const SUMMARY_MAX = 300;
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

/** One line of the library's list. */
export interface PhishingTemplateSummary {
  key: string;
  source: TemplateSource;
  name: string;
  summary: string;
  difficulty: number;
  category: PhishingCategory;
  language: string;
  subject: string;
  sender_name: string;
  cloned_from: string | null;
  created_at: number | null;
  updated_at: number | null;
}

export interface TemplateFilters {
  difficulty?: number | undefined;
  category?: string | undefined;
  source?: TemplateSource | undefined;
  /** Words of the name, summary or subject. */
  q?: string | undefined;
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
const builtInFixed = () => new AppError('phishing_template_built_in');

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

function viewOfRow(row: PhishingTemplateRow): PhishingTemplateView {
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
  keys: string[],
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

function summaryOfBuiltIn(t: LibraryTemplate): PhishingTemplateSummary {
  return {
    key: builtInTemplateKey(t.slug),
    source: 'builtin',
    name: t.name,
    summary: t.summary,
    difficulty: t.difficulty,
    category: t.category,
    language: t.language,
    subject: t.subject,
    sender_name: t.sender_name,
    cloned_from: null,
    created_at: null,
    updated_at: null,
  };
}

function summaryOfRow(row: PhishingTemplateSummaryRow): PhishingTemplateSummary {
  return {
    key: customTemplateKey(row.id),
    source: 'custom',
    name: row.name,
    summary: row.summary,
    difficulty: row.difficulty,
    category: row.category as PhishingCategory,
    language: row.language,
    subject: row.subject,
    sender_name: row.sender_name,
    cloned_from: row.cloned_from,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function matches(t: PhishingTemplateSummary, filters: TemplateFilters, words: string[]): boolean {
  if (filters.difficulty !== undefined && t.difficulty !== filters.difficulty) return false;
  if (filters.category !== undefined && t.category !== filters.category) return false;
  if (filters.source !== undefined && t.source !== filters.source) return false;
  if (words.length === 0) return true;
  const text = foldForSearch(`${t.name}\n${t.summary}\n${t.subject}`);
  return words.every((w) => text.includes(w));
}

/**
 * One page of the library: the built-in templates (easiest first, then by name), then the
 * account's own by name, filtered. An account holds tens of templates, not thousands: the
 * filter runs on their summaries in memory, without the bodies.
 */
export async function listTemplatesPage(
  db: Db,
  accountId: number,
  window: ListWindow,
  filters: TemplateFilters,
): Promise<ListPage<PhishingTemplateSummary>> {
  const builtIns =
    filters.source === 'custom'
      ? []
      : [...builtInPhishingTemplates().values()]
          .map(summaryOfBuiltIn)
          .sort((a, b) => a.difficulty - b.difficulty || a.name.localeCompare(b.name));
  const own =
    filters.source === 'builtin' ? [] : (await listTemplateSummaryRows(db, accountId)).map(summaryOfRow);
  const words = foldForSearch(filters.q ?? '')
    .split(/\s+/)
    .filter(Boolean);
  const all = [...builtIns, ...own].filter((t) => matches(t, filters, words));
  return readList(
    window,
    async () => all.length,
    async (limit, offset) => all.slice(offset, offset + limit),
  );
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

/** Reads an administrator's template into the fields stored, or a 400 naming every problem. */
export function checkedTemplate(input: Record<string, unknown>): {
  content: PhishingTemplateContent;
  summary: string;
} {
  const errors = new FieldErrorCollector();
  const content = readTemplateInput(errors, input);
  const summary = checkText(errors, 'summary', input.summary ?? '', { min: 0, max: SUMMARY_MAX });
  errors.throwIfAny();
  return { content, summary };
}

/** The field errors of a template, without saving it (the editor's live check). */
export function templateFieldErrors(input: Record<string, unknown>): FieldErrors {
  const errors = new FieldErrorCollector();
  readTemplateInput(errors, input);
  checkText(errors, 'summary', input.summary ?? '', { min: 0, max: SUMMARY_MAX });
  return errors.fields;
}

function storedFields(content: PhishingTemplateContent, summary: string) {
  return {
    name: content.name,
    summary,
    subject: content.subject,
    sender_name: content.sender_name,
    sender_address: content.sender_address,
    html: content.html,
    text: content.text,
    landing_html: content.landing_html,
    difficulty: content.difficulty,
    category: content.category,
    language: content.language,
    red_flags: JSON.stringify(content.red_flags),
  };
}

/** Adds a template of the account's own (`custom:<id>`). */
export async function createTemplate(
  db: Db,
  accountId: number,
  input: Record<string, unknown>,
): Promise<PhishingTemplateView> {
  const { content, summary } = checkedTemplate(input);
  await getAccount(db, accountId);
  const now = Date.now();
  const row = await insertTemplateRow(db, accountId, {
    ...storedFields(content, summary),
    cloned_from: null,
    created_at: now,
    updated_at: now,
  });
  return viewOfRow(row);
}

/** The row id a key names for a change, or the error: a built-in one is fixed, anything else unknown. */
function customIdForChange(key: string): number {
  const parsed = parseTemplateKey(key);
  if (parsed?.source === 'builtin' && builtInPhishingTemplates().has(parsed.slug)) throw builtInFixed();
  if (parsed?.source !== 'custom') throw phishingTemplateNotFound();
  return parsed.id;
}

/**
 * Replaces an own template's content. Campaigns already launched keep the copy they took at
 * launch; drafts use the new content when they launch.
 */
export async function updateTemplate(
  db: Db,
  accountId: number,
  key: string,
  input: Record<string, unknown>,
): Promise<PhishingTemplateView> {
  const { content, summary } = checkedTemplate(input);
  const id = customIdForChange(key);
  const row = await updateTemplateRow(db, accountId, id, {
    ...storedFields(content, summary),
    updated_at: Date.now(),
  });
  if (!row) throw phishingTemplateNotFound();
  return viewOfRow(row);
}

/** "<name> (copy)", cut so that it stays a valid name. */
export function copyName(name: string): string {
  const suffix = ' (copy)';
  const chars = [...name];
  return chars.length + suffix.length <= NAME_MAX
    ? `${name}${suffix}`
    : `${chars
        .slice(0, NAME_MAX - suffix.length)
        .join('')
        .trimEnd()}${suffix}`;
}

/** A new template of the account's own with the content of a built-in or own one, `cloned_from` kept. */
export async function cloneTemplate(
  db: Db,
  accountId: number,
  key: string,
  options: { name?: string | undefined } = {},
): Promise<PhishingTemplateView> {
  let name: string | undefined;
  if (options.name !== undefined) {
    const errors = new FieldErrorCollector();
    name = checkText(errors, 'name', options.name, { min: 1, max: NAME_MAX });
    if (/[\r\n\t]/.test(name)) errors.add('name', 'must be one line');
    errors.throwIfAny();
  }
  const source = await getTemplate(db, accountId, key);
  const content = { ...source.content, name: name ?? copyName(source.content.name) };
  const now = Date.now();
  const row = await insertTemplateRow(db, accountId, {
    ...storedFields(content, source.summary),
    cloned_from: source.key,
    created_at: now,
    updated_at: now,
  });
  return viewOfRow(row);
}

/**
 * Deletes an own template. One that a campaign past its draft uses stays (its results name it);
 * drafts that list it lose it from their pool.
 */
export async function deleteTemplate(db: Db, accountId: number, key: string): Promise<void> {
  const id = customIdForChange(key);
  await db.transaction().execute(async (trx) => {
    if (!(await findTemplateRow(trx, accountId, id))) throw phishingTemplateNotFound();
    const users = (await campaignsUsingTemplate(trx, accountId, key)).filter((c) => c.status !== 'draft');
    if (users.length > 0) {
      throw new AppError('phishing_template_in_use', {
        message: `This template is used by ${users.map((c) => `"${c.name}"`).join(', ')}; it cannot be deleted`,
        details: { campaign_ids: users.map((c) => c.id) },
      });
    }
    await removeTemplateFromDrafts(trx, accountId, key);
    await deleteTemplateRow(trx, accountId, id);
  });
}
