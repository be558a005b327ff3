import { foldForSearch } from '../search-text.js';

/** The SQLite function every connection has (sqlite-connections.ts) for byName (collation.ts). */
export const SQLITE_NAME_KEY = 'vigil_name_key';

/**
 * A name's sort key in SQLite: the name folded as a search folds it (case and accents aside),
 * then, for names that fold alike, the name in lower case ("Ozturk" before "Öztürk", as ICU
 * orders them); names that differ by case alone are equal, and keep the order of their ids.
 * U+0001 between the two sorts before any character of a name (names hold no control
 * characters), so "Oz" still comes before "Ozturk". Null stays null.
 * Indexes hold these keys (migration 0020): a change to them needs a migration that runs `reindex`.
 */
export function nameKey(name: unknown): string | null {
  if (name === null || name === undefined) return null;
  const text = String(name);
  return `${foldForSearch(text)}\u0001${text.toLowerCase()}`;
}
