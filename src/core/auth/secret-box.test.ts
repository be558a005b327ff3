import { describe, expect, it } from 'vitest';
import { SealedSecretError, secretBox } from './secret-box.js';

describe('the secret box', () => {
  const box = secretBox('a'.repeat(32));

  it('opens what it sealed, and seals the same text differently each time', () => {
    const sealed = box.seal('JBSWY3DPEHPK3PXP');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.open(sealed)).toBe('JBSWY3DPEHPK3PXP');
    expect(box.seal('JBSWY3DPEHPK3PXP')).not.toBe(sealed);
  });

  it('refuses an altered value, another key’s, and anything not sealed', () => {
    const sealed = box.seal('client secret');
    const [v, iv, tag, data] = sealed.split('.');
    const flipped = `${v}.${iv}.${tag}.${(data ?? '').slice(0, -2)}AA`;
    expect(() => box.open(flipped)).toThrow(SealedSecretError);
    expect(() => secretBox('b'.repeat(32)).open(sealed)).toThrow(SealedSecretError);
    expect(() => box.open('client secret')).toThrow(SealedSecretError);
  });
});
