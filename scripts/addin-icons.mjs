// Draws the Outlook add-in's icons into content/addin/outlook/ (committed; run again only to change
// them). Usage: node scripts/addin-icons.mjs
//
// The Vigil mark of web/public/favicon.svg (a white shield on an indigo rounded square), with an
// exclamation mark in place of the tick: "report this". Drawn by sampling each pixel 4×4 times
// against the shapes below, in a 32×32 design space, and written as RGBA PNGs with node:zlib.
// `outline-32.png` is the unified manifest's outline icon: the shield alone, white on transparent.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';

const out = join(import.meta.dirname, '..', 'content', 'addin', 'outlook');
const INDIGO = [0x4c, 0x6e, 0xf5];
const WHITE = [0xff, 0xff, 0xff];

/** The shield (favicon.svg's path, its curves as short straight runs). */
const SHIELD = (() => {
  const points = [
    [16, 6],
    [24, 9],
    [24, 15],
  ];
  // The right curve "c0 5-3.4 9.3-8 11" from (24,15) to (16,26), and its mirror.
  const curve = (t, sx) => {
    const p0 = [24, 15];
    const p1 = [24, 20];
    const p2 = [20.6, 24.3];
    const p3 = [16, 26];
    const u = 1 - t;
    const x = u * u * u * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t * t * t * p3[0];
    const y = u * u * u * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t * t * t * p3[1];
    return [sx(x), y];
  };
  for (let i = 1; i <= 16; i++) points.push(curve(i / 16, (x) => x));
  for (let i = 15; i >= 0; i--) points.push(curve(i / 16, (x) => 32 - x));
  points.push([8, 9]);
  return points;
})();

function inPolygon(x, y, polygon) {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i];
    const [xj, yj] = polygon[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function inRoundedSquare(x, y, r = 7) {
  const cx = Math.min(Math.max(x, r), 32 - r);
  const cy = Math.min(Math.max(y, r), 32 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

const inMark = (x, y) =>
  (x >= 14.8 && x <= 17.2 && y >= 10 && y <= 18.2) || (x - 16) ** 2 + (y - 21.3) ** 2 <= 1.45 ** 2;

/** The shield shrunk towards its centre: what the outline leaves empty. */
const INNER = SHIELD.map(([x, y]) => [16 + (x - 16) * 0.74, 15.8 + (y - 15.8) * 0.74]);

/** The colour and coverage of one design-space point: [rgb, alpha 0..1] or null. */
function colour(x, y, outline) {
  if (outline) {
    if (inMark(x, y)) return WHITE;
    return inPolygon(x, y, SHIELD) && !inPolygon(x, y, INNER) ? WHITE : null;
  }
  if (!inRoundedSquare(x, y)) return null;
  if (inPolygon(x, y, SHIELD)) return inMark(x, y) ? INDIGO : WHITE;
  return INDIGO;
}

function draw(size, outline = false) {
  const samples = 4;
  const pixels = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let covered = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const x = ((px + (sx + 0.5) / samples) * 32) / size;
          const y = ((py + (sy + 0.5) / samples) * 32) / size;
          const c = colour(x, y, outline);
          if (!c) continue;
          r += c[0];
          g += c[1];
          b += c[2];
          covered++;
        }
      }
      const at = (py * size + px) * 4;
      if (covered > 0) {
        pixels[at] = Math.round(r / covered);
        pixels[at + 1] = Math.round(g / covered);
        pixels[at + 2] = Math.round(b / covered);
        pixels[at + 3] = Math.round((255 * covered) / (samples * samples));
      }
    }
  }
  return png(size, pixels);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function png(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bits per channel
  header[9] = 6; // RGBA
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) rgba.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

mkdirSync(out, { recursive: true });
for (const size of [16, 32, 64, 80, 128, 192]) writeFileSync(join(out, `icon-${size}.png`), draw(size));
writeFileSync(join(out, 'outline-32.png'), draw(32, true));
console.log(`icons written to ${out}`);
