import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../core/config.js';
import { addressRefusal, guardedLookup, isPublicAddress, refusedHost } from './webhooks.addresses.service.js';
import { safeExcerpt } from './webhooks.transport.service.js';

const allowing = (networks: string) =>
  loadConfig({ WEBHOOKS_ALLOWED_NETWORKS: networks }).webhooks.allowedNetworks;

describe('webhook addresses (SSRF)', () => {
  it.each([
    ['127.0.0.1', false],
    ['10.0.0.8', false],
    ['172.16.5.4', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['100.100.100.200', false],
    ['0.0.0.0', false],
    ['224.0.0.1', false],
    ['255.255.255.255', false],
    ['192.0.2.1', false],
    ['::1', false],
    ['::', false],
    ['fe80::1', false],
    ['fd00:ec2::254', false],
    ['ff02::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    // Embeddings of an IPv4 address, whatever it is, public ones included.
    ['::127.0.0.1', false],
    ['::7f00:1', false],
    ['::8.8.8.8', false],
    ['::ffff:8.8.8.8', false],
    ['::ffff:0:808:808', false],
    ['64:ff9b::7f00:1', false],
    ['64:ff9b::808:808', false],
    ['64:ff9b:1::a00:1', false],
    ['2002:7f00:1::1', false],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', false],
    ['8.8.8.8', true],
    ['2606:4700:4700::1111', true],
    ['not an address', false],
    ['127.1', false],
  ])('%s is public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it('lets through exactly what the operator lists, never link-local, metadata or embedded forms', () => {
    const list = allowing('10.20.0.0/16,127.0.0.1/32,fd00::/8,hooks.internal.example');
    expect(addressRefusal('10.20.3.4', list)).toBeNull();
    expect(addressRefusal('127.0.0.1', list)).toBeNull();
    expect(addressRefusal('fd00::7', list)).toBeNull();
    expect(addressRefusal('10.21.0.1', list)).toMatch(/private/);
    expect(addressRefusal('127.0.0.2', list)).toMatch(/private/);
    expect(addressRefusal('169.254.169.254', list)).toMatch(/link-local/);
    // Inside the listed fd00::/8, but AWS's metadata service over IPv6.
    expect(addressRefusal('fd00:ec2::254', list)).toMatch(/metadata/);
    expect(addressRefusal('::ffff:127.0.0.1', list)).toMatch(/IPv4-mapped/);
    expect(addressRefusal('::127.0.0.1', list)).toMatch(/IPv4-compatible/);
    expect(addressRefusal('64:ff9b::a14:304', list)).toMatch(/NAT64/);
    // What a listed host name resolves to: private-use addresses, not loopback nor link-local.
    expect(addressRefusal('192.168.7.7', list, true)).toBeNull();
    expect(addressRefusal('100.64.0.9', list, true)).toBeNull();
    expect(addressRefusal('127.0.0.5', list, true)).toMatch(/loopback/);
    expect(addressRefusal('169.254.169.254', list, true)).toMatch(/link-local/);
    expect(addressRefusal('192.168.7.7', list, false)).toMatch(/private/);
  });

  it('refuses local names and literal addresses not listed before any look-up', () => {
    const none = allowing('');
    expect(refusedHost(new URL('https://localhost/x'), none)).toMatch(/local/);
    expect(refusedHost(new URL('https://svc.internal/x'), none)).toMatch(/local/);
    // An IPv6 form embedding an IPv4 address: no setting opens it, so no setting is named.
    expect(refusedHost(new URL('https://[::ffff:7f00:1]/x'), none)).toMatch(/reserved address$/);
    expect(refusedHost(new URL('https://[::127.0.0.1]/x'), none)).toMatch(/reserved address$/);
    expect(refusedHost(new URL('https://10.0.0.1/x'), none)).toMatch(/private.*WEBHOOKS_ALLOWED_NETWORKS/);
    expect(refusedHost(new URL('https://hooks.example.com/x'), none)).toBeNull();
    const list = allowing('127.0.0.1/32,hooks.internal');
    expect(refusedHost(new URL('https://127.0.0.1/x'), list)).toBeNull();
    expect(refusedHost(new URL('https://HOOKS.internal./x'), list)).toBeNull();
    expect(refusedHost(new URL('https://other.internal/x'), list)).toMatch(/local/);
    expect(refusedHost(new URL('https://[::127.0.0.1]/x'), list)).toMatch(/reserved address$/);
    // URLs spell IPv4 addresses one way: these are 127.0.0.1 and 127.0.0.2.
    for (const url of ['http://2130706433/', 'http://0x7f.1/', 'http://127.1/', 'http://0177.0.0.2/']) {
      expect(refusedHost(new URL(url), none), url).toMatch(/private/);
    }
    expect(refusedHost(new URL('http://0x7f.1/'), list)).toBeNull();
    expect(refusedHost(new URL('http://0177.0.0.2/'), list)).toMatch(/private/);
  });

  it('checks the addresses a name resolves to when connecting (the address checked is the one used)', async () => {
    const resolve = (list: ReturnType<typeof allowing>, name: string) =>
      new Promise<{ err: Error | null; addresses: LookupAddress[] }>((done) =>
        guardedLookup(list)(name, { all: true }, (err, addresses) =>
          done({ err, addresses: addresses as unknown as LookupAddress[] }),
        ),
      );
    expect((await resolve(allowing(''), 'localhost')).err?.message).toMatch(/resolves to a private/);
    // A listed name may resolve to private-use addresses, not to loopback.
    expect((await resolve(allowing('localhost'), 'localhost')).err?.message).toMatch(/resolves to a private/);
    const allowed = await resolve(allowing('127.0.0.0/8,::1'), 'localhost');
    expect(allowed.err).toBeNull();
    expect(allowed.addresses.length).toBeGreaterThan(0);
  });

  it('keeps the first KiB of an answer as safe text', () => {
    expect(safeExcerpt(Buffer.from('ok\u0000\u001b[31m\n'))).toBe('ok\ufffd\ufffd[31m\n');
    expect(safeExcerpt(Buffer.from([0xff, 0x61]))).toBe('\ufffda');
    expect(safeExcerpt(Buffer.alloc(5000, 0x61))).toHaveLength(1024);
  });
});
