import { foldForSearch } from '../search-text.js';

/**
 * A LIKE pattern (used with `escape '\'`) that matches text containing `search`,
 * case-insensitively when compared with `lower(column)`: `%`, `_` and `\` in the search are
 * literal. Undefined when there is nothing to search for; null when the search holds a NUL,
 * which no stored text does (input refuses control characters) and PostgreSQL cannot even
 * compare: such a search matches nothing, without asking the database.
 */
export function containsPattern(search: string | undefined): string | undefined | null {
  const text = search?.trim().toLowerCase();
  if (!text) return undefined;
  if (text.includes('\u0000')) return null;
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * A LIKE pattern (with `escape '\'`) that matches folded text (`foldForSearch`, as stored in
 * `employees.search_text`) containing the folded `search`. Undefined when there is nothing to
 * search for; null when the search holds a control character (a NUL, a line break), which no
 * stored name or address does (input refuses them): such a search matches nothing, without
 * asking the database.
 */
export function foldedContainsPattern(search: string | undefined): string | undefined | null {
  const text = search?.trim();
  if (!text) return undefined;
  if (/\p{Cc}/u.test(text)) return null;
  const folded = foldForSearch(text);
  if (!folded) return undefined;
  return `%${folded.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
