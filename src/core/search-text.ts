/**
 * Text folded for searching, the same way in both databases: SQLite's `lower()` and `like` fold
 * ASCII letters only ("öztürk" could not find "Öztürk"), so the folding happens here, on write,
 * into a column (`employees.search_text`, migration 0006), and on the search itself.
 *
 * Folding is case-insensitive for every script and accent-insensitive for the accents of the
 * Latin, Greek and Cyrillic alphabets (the combining marks U+0300–U+036F):
 * - compatibility forms become plain ones (NFKD: "ﬁ" is "fi", a full-width "Ａ" is "A");
 * - upper then lower case (full case mapping): "ß", "ẞ" and "SS" are all "ss", Greek "ς" is "σ",
 *   Turkish "İ" and "ı" are "i";
 * - those accents go: "Öztürk" is "ozturk", "Émile" is "emile", "Ελένη" is "ελενη", and "ё" is
 *   "е" (also "й" is "и": a search finds more, never less);
 * - a few letters with a stroke that are not made of a letter and an accent: "ø", "ł", "đ",
 *   "ħ", "ŧ" are "o", "l", "d", "h", "t"; "æ", "œ", "þ" are "ae", "oe", "th";
 * - other scripts keep their marks (Japanese "が" stays "が", not "か"; Devanagari vowel
 *   signs stay), and the result is NFC.
 *
 * Changing this changes what is stored: it then needs a migration that recomputes
 * `employees.search_text` (as 0006 does), or old rows and new searches disagree.
 */

const ASCII = /^[\u0020-\u007e]*$/;
const ACCENTS = /[\u0300-\u036f]/g;
const LETTERS: Record<string, string> = {
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ħ: 'h',
  ŧ: 't',
  æ: 'ae',
  œ: 'oe',
  þ: 'th',
  ς: 'σ',
  // The capital ẞ lower-cases to ß, which upper-casing made "SS" only if it came first.
  ß: 'ss',
};
const SPECIAL_LETTERS = new RegExp(`[${Object.keys(LETTERS).join('')}]`, 'g');

export function foldForSearch(text: string): string {
  // Printable ASCII (most names and every address) only changes case: the steps below leave the rest as it
  // is, and skipping them makes the SQLite name key (name-key.ts) four times cheaper to compute.
  if (ASCII.test(text)) return text.toLowerCase();
  return text
    .normalize('NFKD')
    .toUpperCase()
    .toLowerCase()
    .normalize('NFKD')
    .replace(ACCENTS, '')
    .replace(SPECIAL_LETTERS, (c) => LETTERS[c] as string)
    .normalize('NFC');
}

/**
 * What an employee search looks in: the full name ("ann lee", so a search can span both names)
 * and, on a line of its own, the address (a search never spans the two: it holds no line break).
 */
export function employeeSearchText(employee: {
  first_name: string;
  last_name: string;
  email: string;
}): string {
  return `${foldForSearch(`${employee.first_name} ${employee.last_name}`)}\n${foldForSearch(employee.email)}`;
}
