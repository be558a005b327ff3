// Reading an employee CSV in the browser: rows with their line numbers, and which column is which.
import Papa from 'papaparse';
import type { EmployeeInput } from '../../../api/types';

export const FIELDS = ['first_name', 'last_name', 'email'] as const;
export type Field = (typeof FIELDS)[number];
export type ColumnMapping = Record<Field, number | null>;

export const FIELD_LABELS: Record<Field, string> = {
  first_name: 'First name',
  last_name: 'Last name',
  email: 'Email',
};

/** Header spellings we recognise, compared lower-case without spaces, dashes or underscores. */
const HEADER_NAMES: Record<Field, string[]> = {
  first_name: ['firstname', 'first', 'givenname', 'forename', 'vorname', 'prenom', 'prénom'],
  last_name: ['lastname', 'last', 'surname', 'familyname', 'nachname', 'nom', 'nomdefamille'],
  email: ['email', 'emailaddress', 'mail', 'mailaddress', 'emailadresse', 'courriel', 'workemail'],
};

export interface CsvLine {
  /** 1-based line number in the file (quoted line breaks counted). */
  line: number;
  cells: string[];
}

export interface ParsedCsv {
  lines: CsvLine[];
  /** The most cells any line has. */
  width: number;
}

const normalise = (header: string) => header.toLowerCase().replace(/[\s_\-.]/g, '');

/** Parses CSV text (delimiter detected), skipping blank lines but keeping true line numbers. */
export function parseCsv(text: string): ParsedCsv {
  const lines: CsvLine[] = [];
  let line = 1;
  let cursor = 0;
  let width = 0;
  Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), {
    skipEmptyLines: false,
    step: (result) => {
      const cells = result.data.map((cell) => cell.trim());
      if (cells.some((cell) => cell !== '')) {
        lines.push({ line, cells });
        width = Math.max(width, cells.length);
      }
      const end = result.meta.cursor;
      for (let i = cursor; i < end; i++) if (text.charCodeAt(i) === 10) line++;
      cursor = end;
    },
  });
  return { lines, width };
}

/** Which column holds which field, from the header row; null where no header matches. */
export function recogniseColumns(header: string[]): ColumnMapping {
  const names = header.map(normalise);
  const mapping: ColumnMapping = { first_name: null, last_name: null, email: null };
  for (const field of FIELDS) {
    const index = names.findIndex((name) => HEADER_NAMES[field].includes(name));
    if (index >= 0) mapping[field] = index;
  }
  // "Name"-less fallbacks: a header containing "mail" is surely the address.
  if (mapping.email === null) {
    const index = names.findIndex((name) => name.includes('mail'));
    if (index >= 0) mapping.email = index;
  }
  return mapping;
}

/** Whether a first line looks like data rather than column names (it holds an address). */
export function looksLikeData(cells: string[]): boolean {
  return cells.some((cell) => /^[^@\s]+@[^@\s]+$/.test(cell));
}

export interface ImportRow extends EmployeeInput {
  line: number;
}

/** The rows to import under a mapping (a missing cell is an empty string). */
export function mapRows(lines: CsvLine[], mapping: ColumnMapping): ImportRow[] {
  const cell = (cells: string[], index: number | null) => (index === null ? '' : (cells[index] ?? ''));
  return lines.map(({ line, cells }) => ({
    line,
    first_name: cell(cells, mapping.first_name),
    last_name: cell(cells, mapping.last_name),
    email: cell(cells, mapping.email),
  }));
}
