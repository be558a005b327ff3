import { describe, expect, it } from 'vitest';
import { isPublicAddress, publicOnlyLookup, refusedHost } from './webhooks.addresses.js';
import { safeExcerpt } from './webhooks.transport.js';

describe('webhook addresses (SSRF)', () => {
  it.each([
    ['127.0.0.1', false],
    ['10.0.0.8', false],
    ['172.16.5.4', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['224.0.0.1', false],
    ['255.255.255.255', false],
    ['::1', false],
    ['::', false],
    ['fe80::1', false],
    ['fd00:ec2::254', false],
    ['ff02::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['8.8.8.8', true],
    ['2606:4700:4700::1111', true],
    ['::ffff:8.8.8.8', true],
    ['not an address', false],
  ])('%s is public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it('refuses local names and literal private addresses before any look-up, unless allowed', () => {
    expect(refusedHost(new URL('https://localhost/x'), false)).toMatch(/local/);
    expect(refusedHost(new URL('https://svc.internal/x'), false)).toMatch(/local/);
    expect(refusedHost(new URL('https://[::ffff:7f00:1]/x'), false)).toMatch(/private/);
    expect(refusedHost(new URL('https://hooks.example.com/x'), false)).toBeNull();
    expect(refusedHost(new URL('https://127.0.0.1/x'), true)).toBeNull();
  });

  it('refuses a name that resolves to a private address when connecting (the address checked is the one used)', async () => {
    const lookup = publicOnlyLookup(false);
    const error = await new Promise<Error | null>((resolve) =>
      lookup('localhost', { all: true }, (err) => resolve(err)),
    );
    expect(error?.message).toMatch(/resolves to a private/);
    const allowed = await new Promise<Error | null>((resolve) =>
      publicOnlyLookup(true)('localhost', { all: true }, (err) => resolve(err)),
    );
    expect(allowed).toBeNull();
  });

  it('keeps the first KiB of an answer as safe text', () => {
    expect(safeExcerpt(Buffer.from('ok\u0000\u001b[31m\n'))).toBe('ok\ufffd\ufffd[31m\n');
    expect(safeExcerpt(Buffer.from([0xff, 0x61]))).toBe('\ufffda');
    expect(safeExcerpt(Buffer.alloc(5000, 0x61))).toHaveLength(1024);
  });
});
