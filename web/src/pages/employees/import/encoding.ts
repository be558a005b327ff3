// Which encoding a chosen CSV file is in: UTF-8 when its bytes are valid UTF-8, else a legacy
// single-byte encoding (Excel on Windows saves "CSV" as Windows-1252 in Western Europe).

/** The encodings a file that is not UTF-8 can be read as, most likely first. */
export const LEGACY_ENCODINGS = [
  { value: 'windows-1252', label: 'Windows-1252 (Western European)' },
  { value: 'windows-1250', label: 'Windows-1250 (Central European)' },
  { value: 'iso-8859-15', label: 'ISO-8859-15 (Latin-9)' },
  { value: 'macintosh', label: 'Mac OS Roman' },
] as const;

export type LegacyEncoding = (typeof LEGACY_ENCODINGS)[number]['value'];

export interface DecodedFile {
  text: string;
  /** The bytes are not valid Unicode: the legacy encoding they were read as, for the user to check. */
  legacy: LegacyEncoding | null;
}

export function encodingLabel(encoding: LegacyEncoding): string {
  return LEGACY_ENCODINGS.find((e) => e.value === encoding)?.label ?? encoding;
}

/**
 * Decodes a file's bytes: by its byte order mark when it has one (UTF-16, as Excel's "Unicode
 * text"), as UTF-8 when every byte sequence is valid UTF-8, else as `legacy` (Windows-1252 unless
 * the user chose another). Never silently: a file read in a legacy encoding says so.
 */
export function decodeFile(bytes: Uint8Array, legacy: LegacyEncoding = 'windows-1252'): DecodedFile {
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return { text: new TextDecoder('utf-16le').decode(bytes), legacy: null };
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return { text: new TextDecoder('utf-16be').decode(bytes), legacy: null };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), legacy: null };
  } catch {
    return { text: new TextDecoder(legacy).decode(bytes), legacy };
  }
}
