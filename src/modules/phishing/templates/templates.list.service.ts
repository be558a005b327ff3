import type { Db } from '../../../core/db/database.js';
import { type ListPage, type ListWindow, readList } from '../../../core/pagination.js';
import { foldForSearch } from '../../../core/search-text.js';
import { builtInPhishingTemplates, type LibraryTemplate } from './templates.library.service.js';
import { builtInTemplateKey, customTemplateKey, type TemplateSource } from './templates.lookup.service.js';
import { listTemplateSummaryRows, type PhishingTemplateSummaryRow } from './templates.repository.js';
import type { PhishingCategory } from './templates.rules.model.js';

/** The library's list: built-in templates and an account's own, filtered and paged. */

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
