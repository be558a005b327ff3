/**
 * What an account's logo may be: a PNG, JPEG or WebP image of at most 256 KiB, known by its
 * own first bytes, never by the type a browser declared for it. SVG is refused: it is a
 * document that can carry script and links, and no sanitiser is worth that risk for a logo.
 */

export type LogoType = 'image/png' | 'image/jpeg' | 'image/webp';

export const LOGO_MAX_BYTES = 256 * 1024;

/** The media types the upload route accepts; the bytes decide which one a logo is. */
export const LOGO_UPLOAD_TYPES: readonly LogoType[] = ['image/png', 'image/jpeg', 'image/webp'];

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const startsWith = (bytes: Uint8Array, prefix: number[], at = 0) =>
  bytes.length >= at + prefix.length && prefix.every((b, i) => bytes[at + i] === b);

/**
 * The image type these bytes are, by their signature (PNG's eight bytes and its IHDR chunk,
 * JPEG's SOI marker followed by another marker, RIFF…WEBP with a VP8 chunk), or null. Reads a
 * fixed number of bytes, whatever the input.
 */
export function sniffLogo(bytes: Uint8Array): LogoType | null {
  if (startsWith(bytes, PNG) && startsWith(bytes, [0x49, 0x48, 0x44, 0x52], 12)) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff]) && (bytes[3] ?? 0) >= 0xc0) return 'image/jpeg';
  const ascii = (at: number, text: string) =>
    startsWith(
      bytes,
      [...text].map((c) => c.charCodeAt(0)),
      at,
    );
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP') && ascii(12, 'VP8')) return 'image/webp';
  return null;
}

/** The name employees see: the display name an administrator set, else the account's name. */
export function displayNameOf(account: { name: string; display_name: string | null }): string {
  return account.display_name ?? account.name;
}
