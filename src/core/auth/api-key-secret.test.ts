import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey, isWellFormedApiKey, KEY_PREFIX } from './api-key-secret.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

describe('generateApiKey', () => {
  it('makes vgl_ followed by at least 32 base62 characters (≥ 160 random bits)', () => {
    const { key } = generateApiKey();
    expect(KEY_PREFIX).toBe('vgl_');
    expect(key).toMatch(/^vgl_[0-9A-Za-z]{32,}$/);
    const body = key.slice(KEY_PREFIX.length);
    expect(body.length * Math.log2(62)).toBeGreaterThanOrEqual(160);
  });

  it('shows vgl_ and the next 8 characters as the prefix', () => {
    const { key, prefix } = generateApiKey();
    expect(prefix).toBe(key.slice(0, 12));
    expect(prefix).toMatch(/^vgl_[0-9A-Za-z]{8}$/);
  });

  it('keeps only the SHA-256 of the key', () => {
    const { key, hash } = generateApiKey();
    expect(hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(key.slice(4));
  });

  it('never repeats a key', () => {
    const keys = new Set(Array.from({ length: 5000 }, () => generateApiKey().key));
    expect(keys.size).toBe(5000);
  });

  it('draws on the whole base62 alphabet', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) for (const c of generateApiKey().key.slice(4)) seen.add(c);
    expect([...seen].sort().join('')).toBe([...BASE62].sort().join(''));
  });
});

describe('hashApiKey', () => {
  it('is deterministic and tells different keys apart', () => {
    const a = generateApiKey().key;
    const b = `${a.slice(0, -1)}${a.endsWith('A') ? 'B' : 'A'}`;
    expect(hashApiKey(a)).toBe(hashApiKey(a));
    expect(hashApiKey(a)).not.toBe(hashApiKey(b));
  });
});

describe('isWellFormedApiKey', () => {
  it('accepts generated keys', () => {
    for (let i = 0; i < 20; i++) expect(isWellFormedApiKey(generateApiKey().key)).toBe(true);
  });

  it('accepts 32 to 128 base62 characters after the prefix', () => {
    expect(isWellFormedApiKey(`vgl_${'a'.repeat(32)}`)).toBe(true);
    expect(isWellFormedApiKey(`vgl_${'Z9'.repeat(64)}`)).toBe(true);
  });

  it('rejects anything else without asking the database', () => {
    const body = 'a'.repeat(40);
    for (const key of [
      '',
      'vgl_',
      `vgl_${'a'.repeat(31)}`,
      `vgl_${'a'.repeat(129)}`,
      `VGL_${body}`,
      `vgl-${body}`,
      body,
      `vgl_${body.slice(1)}-`,
      `vgl_${body.slice(1)}_`,
      `vgl_${body} `,
      ` vgl_${body}`,
      `vgl_${body.slice(1)}é`,
      `vgl_${body}\n`,
    ]) {
      expect(isWellFormedApiKey(key), JSON.stringify(key)).toBe(false);
    }
  });
});
