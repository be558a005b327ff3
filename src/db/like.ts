/**
 * A LIKE pattern (used with `escape '\'`) that matches text containing `search`,
 * case-insensitively when compared with `lower(column)`: `%`, `_` and `\` in the search are
 * literal. Undefined when there is nothing to search for.
 */
export function containsPattern(search: string | undefined): string | undefined {
  const text = search?.trim().toLowerCase();
  if (!text) return undefined;
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
