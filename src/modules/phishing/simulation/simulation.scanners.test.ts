import { describe, expect, it } from 'vitest';
import { FieldErrorCollector } from '../../../core/errors.js';
import {
  checkScannerNetworks,
  findScannerNetwork,
  MAX_SCANNER_NETWORKS,
  matchUserAgentSignature,
  normalizeClientAddress,
  parseClientAddress,
  parseScannerNetworks,
  USER_AGENT_SIGNATURES,
} from './simulation.scanners.model.js';

describe('USER_AGENT_SIGNATURES', () => {
  it.each(USER_AGENT_SIGNATURES.map((s) => [s.name, s] as const))('recognises the sample of %s', (_, s) => {
    expect(s.pattern.test(s.sample)).toBe(true);
    expect(matchUserAgentSignature(s.sample)).toBe(s);
  });

  it('matches case-insensitively and statelessly (no global or sticky flag)', () => {
    for (const s of USER_AGENT_SIGNATURES) expect(s.pattern.flags).toBe('i');
    expect(matchUserAgentSignature('CURL/8.0')?.name).toBe('curl');
    expect(matchUserAgentSignature('PYTHON-REQUESTS/2.0')?.name).toBe('python-requests');
  });

  it('names each entry once', () => {
    const names = USER_AGENT_SIGNATURES.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('does not take words that merely contain a name for it', () => {
    for (const ua of [
      'Mozilla/5.0 (X11) Nodejsfan/1.0',
      'Mozilla/5.0 Ruby-on-rails-fan',
      'recurl/1.0',
      'Java',
    ]) {
      expect(matchUserAgentSignature(ua)).toBeNull();
    }
  });
});

function parsed(lines: string[]) {
  return parseScannerNetworks(lines);
}

describe('parseScannerNetworks', () => {
  it('reads IPv4 and IPv6 networks and single addresses, normalised', () => {
    const { networks, errors } = parsed([
      '40.92.0.0/15',
      '  2603:1000::/25  ',
      '203.0.113.7',
      '2001:DB8:0:0::1',
      '::ffff:10.0.0.0/104',
    ]);
    expect(errors).toEqual([]);
    expect(networks.map((n) => n.cidr)).toEqual([
      '40.92.0.0/15',
      '2603:1000::/25',
      '203.0.113.7/32',
      '2001:db8::1/128',
      '10.0.0.0/8',
    ]);
    expect(networks.map((n) => n.version)).toEqual([4, 6, 4, 6, 4]);
  });

  it('ignores empty lines and comments and drops duplicates', () => {
    const { networks, errors } = parsed(['', '   ', '# Microsoft 365', '40.92.0.0/15', '40.92.0.0/15']);
    expect(errors).toEqual([]);
    expect(networks.map((n) => n.cidr)).toEqual(['40.92.0.0/15']);
  });

  it('names each wrong line with what is wrong with it', () => {
    const { networks, errors } = parsed([
      '10.0.0.0/33',
      'banana',
      '',
      '10.0.0.1/8',
      '0.0.0.0/0',
      '2001:db8::/129',
      '2001::/8',
      '10.0.0.0/',
      '10.0.0.0/8/8',
      '10.0.0.0/ 8',
      '010.0.0.1',
      '10.0.0',
      'fe80::1%eth0',
      '198.51.100.0/24',
      'x'.repeat(101),
    ]);
    expect(networks.map((n) => n.cidr)).toEqual(['198.51.100.0/24']);
    expect(errors).toEqual([
      { index: 0, message: 'must have a prefix length of at most 32 for an IPv4 network' },
      {
        index: 1,
        message:
          'must be an IP address or a network in CIDR notation, such as 203.0.113.0/24 or 2001:db8::/32',
      },
      { index: 3, message: "must start at its network's first address: 10.0.0.0/8" },
      {
        index: 4,
        message: 'must not be wider than /8 for IPv4: it would count most people as scanners',
      },
      { index: 5, message: 'must have a prefix length of at most 128 for an IPv6 network' },
      {
        index: 6,
        message: 'must not be wider than /16 for IPv6: it would count most people as scanners',
      },
      ...[7, 8, 9].map((index) => ({
        index,
        message:
          'must end in a prefix length from 0 to 32 after the slash, such as 203.0.113.0/24 or 2001:db8::/32',
      })),
      ...[10, 11, 12].map((index) => ({
        index,
        message:
          'must be an IP address or a network in CIDR notation, such as 203.0.113.0/24 or 2001:db8::/32',
      })),
      { index: 14, message: 'must be at most 100 characters' },
    ]);
  });

  it('refuses more than the limit of networks as a whole', () => {
    const lines = Array.from({ length: MAX_SCANNER_NETWORKS + 1 }, (_, i) => `10.${i >> 8}.${i & 255}.0/24`);
    expect(parsed(lines.slice(0, MAX_SCANNER_NETWORKS)).errors).toEqual([]);
    expect(parsed(lines).errors).toEqual([
      { index: null, message: `must have at most ${MAX_SCANNER_NETWORKS} networks` },
    ]);
  });
});

describe('checkScannerNetworks', () => {
  it('files each error under the line of the field', () => {
    const errors = new FieldErrorCollector();
    const networks = checkScannerNetworks(errors, 'scanner_networks', [
      '40.92.0.0/15',
      'banana',
      '10.0.0.0/33',
    ]);
    expect(networks.map((n) => n.cidr)).toEqual(['40.92.0.0/15']);
    expect(Object.keys(errors.fields)).toEqual(['scanner_networks[1]', 'scanner_networks[2]']);
  });

  it('wants a list of strings', () => {
    for (const value of ['10.0.0.0/8', [1], null, undefined]) {
      const errors = new FieldErrorCollector();
      expect(checkScannerNetworks(errors, 'scanner_networks', value)).toEqual([]);
      expect(errors.fields).toEqual({ scanner_networks: ['must be a list of strings'] });
    }
  });
});

describe('findScannerNetwork', () => {
  const { networks } = parsed(['40.92.0.0/15', '203.0.113.7', '2603:1000::/25', '2001:db8:1::/48']);
  const inside = (address: string) => findScannerNetwork(address, networks)?.cidr ?? null;

  it('finds IPv4 addresses inside a network, up to its edges', () => {
    expect(inside('40.92.0.0')).toBe('40.92.0.0/15');
    expect(inside('40.93.255.255')).toBe('40.92.0.0/15');
    expect(inside('40.94.0.0')).toBeNull();
    expect(inside('40.91.255.255')).toBeNull();
    expect(inside('203.0.113.7')).toBe('203.0.113.7/32');
    expect(inside('203.0.113.8')).toBeNull();
  });

  it('reads IPv4-mapped IPv6 addresses as the IPv4 address they carry', () => {
    expect(inside('::ffff:40.92.10.1')).toBe('40.92.0.0/15');
    expect(inside('::FFFF:285c:0a01')).toBe('40.92.0.0/15');
    expect(inside('::ffff:40.94.0.1')).toBeNull();
  });

  it('finds IPv6 addresses inside a network, whatever their spelling', () => {
    expect(inside('2603:1000::1')).toBe('2603:1000::/25');
    expect(inside('2603:107f:ffff:ffff:ffff:ffff:ffff:ffff')).toBe('2603:1000::/25');
    expect(inside('2603:1080::')).toBeNull();
    expect(inside('2001:0DB8:0001:0000:0000:0000:0000:0042')).toBe('2001:db8:1::/48');
    expect(inside('2001:db8:2::1')).toBeNull();
  });

  it('matches a mapped network given as IPv6 against plain IPv4 clients', () => {
    const mapped = parsed(['::ffff:192.0.2.0/120']).networks;
    expect(findScannerNetwork('192.0.2.77', mapped)?.cidr).toBe('192.0.2.0/24');
  });

  it('matches nothing for what is no address', () => {
    for (const address of ['', 'unknown', '40.92.0.0/15', '40.92.1', ' 40.92.0.1', 'x'.repeat(100)]) {
      expect(inside(address)).toBeNull();
    }
    expect(findScannerNetwork('40.92.0.1', [])).toBeNull();
  });
});

describe('client addresses', () => {
  it('spells one client one way', () => {
    expect(normalizeClientAddress('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(normalizeClientAddress('2001:0DB8:0:0:0:0:0:1')).toBe('2001:db8::1');
    expect(normalizeClientAddress('not an address')).toBe('not an address');
  });

  it('parses IPv4 and IPv6 into 32-bit words', () => {
    expect(parseClientAddress('192.0.2.1')).toEqual({ version: 4, words: [0xc0000201] });
    expect(parseClientAddress('2001:db8::ff')).toEqual({ version: 6, words: [0x20010db8, 0, 0, 0xff] });
    expect(parseClientAddress('nope')).toBeNull();
  });
});
