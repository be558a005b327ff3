import Papa from 'papaparse';

const EMAIL = /^[^@\s,;<>"]+@[^@\s,;<>"]+$/;

/**
 * Every distinct address in a CSV file or pasted text: cells (or words) that look like one,
 * whatever the column; header cells like "email" are not addresses and drop out by themselves.
 */
export function extractEmails(text: string): string[] {
  const seen = new Map<string, string>();
  const { data } = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: true });
  for (const row of data) {
    for (const cell of row) {
      for (const word of cell.split(/[\s,;]+/)) {
        const email = word.trim();
        if (EMAIL.test(email) && !seen.has(email.toLowerCase())) seen.set(email.toLowerCase(), email);
      }
    }
  }
  return [...seen.values()];
}
