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
