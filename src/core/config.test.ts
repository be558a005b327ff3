import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const load = (env: NodeJS.ProcessEnv) => loadConfig(env);
const refusal = (env: NodeJS.ProcessEnv) => {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
};

describe('loadConfig', () => {
  it('starts with no settings at all', () => {
    const config = load({});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: 'sqlite:./data/vigil.db',
      trustProxy: false,
      logLevel: 'info',
      database: { poolMax: 10 },
    });
    expect(config.mail.from).toBe('Security training <training@vigil.invalid>');
  });

  it('reads TRUST_PROXY as true, a hop count, or proxy addresses and ranges', () => {
    expect(load({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(load({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    // A hop count, as documented: `1` trusts the one proxy in front, not every X-Forwarded-For entry.
    expect(load({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(load({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(load({ TRUST_PROXY: '10.0.0.0/8, loopback,::1' }).trustProxy).toBe('10.0.0.0/8,loopback,::1');
    expect(load({ TRUST_PROXY: '192.168.0.0/255.255.0.0' }).trustProxy).toBe('192.168.0.0/255.255.0.0');
    expect(load({ TRUST_PROXY: 'fd00::/8' }).trustProxy).toBe('fd00::/8');
    for (const bad of ['yes', 'on', '10.0.0.0/33', '10.0.0.300', 'proxy.internal', '1,', '-1', '101']) {
      expect(refusal({ TRUST_PROXY: bad }), bad).toMatch(/^TRUST_PROXY must be true, false, a hop count/);
    }
  });

  it('reads LOG_LEVEL as one of pino’s levels, in any case', () => {
    expect(load({ LOG_LEVEL: 'debug' }).logLevel).toBe('debug');
    expect(load({ LOG_LEVEL: 'WARN' }).logLevel).toBe('warn');
    expect(refusal({ LOG_LEVEL: 'loud' })).toBe(
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    );
  });

  it('accepts an address or a host name to listen on', () => {
    for (const host of ['0.0.0.0', '::', '::1', '10.1.2.3', 'localhost', 'vigil-1.internal']) {
      expect(load({ HOST: host }).host).toBe(host);
    }
    for (const bad of ['http://0.0.0.0', '0.0.0.0:8080', '[::1]', 'a b', '-x.example']) {
      expect(refusal({ HOST: bad }), bad).toMatch(/^HOST must be an IP address or a host name/);
    }
  });

  it('checks the form of every URL and never repeats a password it was given', () => {
    expect(load({ DATABASE_URL: 'postgresql://u:p@db:5432/vigil' }).databaseUrl).toBe(
      'postgresql://u:p@db:5432/vigil',
    );
    expect(refusal({ DATABASE_URL: 'mysql://u:secret@db/vigil' })).toBe(
      'DATABASE_URL must be sqlite:PATH or postgres://user@host:5432/database, got "mysql://u:***@db/vigil"',
    );
    expect(refusal({ DATABASE_URL: 'postgres://u:secret@db:port/vigil' })).not.toContain('secret');
    expect(load({ REDIS_URL: 'rediss://:pw@cache:6380/2' }).redisUrl).toBe('rediss://:pw@cache:6380/2');
    expect(refusal({ REDIS_URL: 'cache:6379' })).toMatch(/^REDIS_URL must be redis:\/\/host:6379/);
    expect(refusal({ SMTP_URL: 'smtp://u:secret@mail:x' })).not.toContain('secret');
    expect(load({ SMTP_URL: 'smtps://u:p@mail.example.com:465' }).mail.smtpUrl).toBe(
      'smtps://u:p@mail.example.com:465',
    );
  });

  it('reads MAIL_FROM as an address or Name <address>', () => {
    expect(load({ MAIL_FROM: 'training@acme.example' }).mail.from).toBe('training@acme.example');
    expect(load({ MAIL_FROM: 'Acme Training <training@acme.example>' }).mail.from).toBe(
      'Acme Training <training@acme.example>',
    );
    for (const bad of ['Acme Training', 'a@b.example, c@d.example', 'Name <no-at>', 'Evil\r\nBcc: x <a@b>']) {
      expect(refusal({ MAIL_FROM: bad }), bad).toMatch(/^MAIL_FROM must be an address or Name <address>/);
    }
  });

  it('reads PG_POOL_MAX for the server’s connections', () => {
    expect(load({ PG_POOL_MAX: '25' }).database.poolMax).toBe(25);
    expect(refusal({ PG_POOL_MAX: 'lots' })).toBe(
      'PG_POOL_MAX must be an integer from 1 to 1000, got "lots"',
    );
  });

  it('reads WEBHOOKS_ALLOWED_NETWORKS as networks and host names, and refuses what webhooks never reach', () => {
    expect(load({}).webhooks.allowedNetworks).toEqual({ networks: [], hosts: [] });
    expect(
      load({
        WEBHOOKS_ALLOWED_NETWORKS: ' 10.20.0.0/16, fd00:1:0::/64,10.1.2.3,::1, Hooks.Internal.Example.',
      }).webhooks.allowedNetworks,
    ).toEqual({
      networks: ['10.20.0.0/16', 'fd00:1::/64', '10.1.2.3/32', '::1/128'],
      hosts: ['hooks.internal.example'],
    });
    const entry = (value: string) => refusal({ WEBHOOKS_ALLOWED_NETWORKS: value });
    for (const bad of [
      '10.0.0.0/8 10.1.0.0/16',
      'http://hooks.example',
      '*.example.com',
      'a_b c',
      '10.0.0.1:80',
    ]) {
      expect(entry(bad), bad).toMatch(
        /^WEBHOOKS_ALLOWED_NETWORKS must be comma-separated networks .* is neither$/,
      );
    }
    // Spellings of an IPv4 address that URLs turn into another: neither networks nor names.
    for (const bad of ['127.1', '0x7f.0.0.1', '0177.0.0.1/32', '2130706433', '10.1/16']) {
      expect(entry(bad), bad).toMatch(/is neither$/);
    }
    expect(entry('10.20.1.0/16')).toBe(
      'WEBHOOKS_ALLOWED_NETWORKS: "10.20.1.0/16" has bits set past its prefix; write the network, 10.20.0.0/16',
    );
    expect(entry('10.0.0.0/33')).toMatch(/has a prefix longer than 32 bits/);
    for (const [bad, why] of [
      ['169.254.169.254', /link-local addresses \(cloud metadata\)/],
      ['169.254.0.0/16', /link-local/],
      ['0.0.0.0/0', /this-network/],
      ['128.0.0.0/1', /link-local|multicast/],
      ['::/0', /IPv4-compatible/],
      ['::ffff:0:0/96', /IPv4-mapped/],
      ['64:ff9b::/96', /NAT64/],
      ['2002::/16', /6to4/],
      ['2001::/32', /Teredo/],
      ['fe80::/10', /link-local/],
      ['fd00:ec2::254', /metadata/],
    ] as const) {
      expect(entry(bad), bad).toMatch(why);
      expect(entry(bad), bad).toMatch(/which webhooks never reach/);
    }
  });

  it('stops at WEBHOOKS_ALLOW_PRIVATE_NETWORKS, whatever its value, naming its replacement', () => {
    for (const value of ['on', 'off']) {
      expect(refusal({ WEBHOOKS_ALLOW_PRIVATE_NETWORKS: value })).toMatch(
        /^WEBHOOKS_ALLOW_PRIVATE_NETWORKS is no longer read .* WEBHOOKS_ALLOWED_NETWORKS/,
      );
    }
  });

  it('reads WEBHOOKS_MAX_ENDPOINTS, 20 by default', () => {
    expect(load({}).webhooks.maxEndpoints).toBe(20);
    expect(load({ WEBHOOKS_MAX_ENDPOINTS: '50' }).webhooks.maxEndpoints).toBe(50);
    expect(refusal({ WEBHOOKS_MAX_ENDPOINTS: '0' })).toBe(
      'WEBHOOKS_MAX_ENDPOINTS must be an integer from 1 to 1000, got "0"',
    );
  });

  it('says what is wrong in one line, whatever the value holds', () => {
    const message = refusal({ WORKERS: 'maybe\nrm -rf /' });
    expect(message).toBe('WORKERS must be on or off, got "maybe\\nrm -rf /"');
    expect(message).not.toContain('\n');
  });

  it('leaves the reporting address off without REPORT_SMTP_PORT, and reads its settings with it', () => {
    expect(load({}).reports).toMatchObject({ domain: undefined, smtp: undefined });
    expect(load({ REPORT_DOMAIN: 'Reports.Example.COM.' }).reports).toMatchObject({
      domain: 'reports.example.com',
      smtp: undefined,
    });
    expect(load({ REPORT_SMTP_PORT: '2525', REPORT_DOMAIN: 'reports.example.com' }).reports.smtp).toEqual({
      port: 2525,
      host: '0.0.0.0',
      tls: undefined,
      maxBytes: 10 * 1024 * 1024,
      connectionsPerAddress: 5,
      maxConnections: 100,
    });
    expect(refusal({ REPORT_SMTP_PORT: '2525' })).toMatch(
      /^REPORT_DOMAIN must be set when REPORT_SMTP_PORT is/,
    );
    expect(refusal({ REPORT_DOMAIN: '192.0.2.1' })).toMatch(/^REPORT_DOMAIN must be the domain name/);
    expect(refusal({ REPORT_SMTP_MAX_BYTES: String(10 * 1024 * 1024 + 1) })).toBe(
      'REPORT_SMTP_MAX_BYTES must be an integer from 65536 to 10485760, got "10485761"',
    );
    expect(refusal({ REPORT_SMTP_HOST: 'no host!' })).toMatch(/^REPORT_SMTP_HOST must be an IP address/);
  });

  it('checks the reporting address’s certificate and key as it starts', () => {
    expect(refusal({ REPORT_SMTP_TLS_CERT: '/etc/hostname' })).toMatch(
      /^REPORT_SMTP_TLS_CERT and REPORT_SMTP_TLS_KEY must be set together .* got only REPORT_SMTP_TLS_CERT$/,
    );
    expect(
      refusal({ REPORT_SMTP_TLS_CERT: '/nonexistent.pem', REPORT_SMTP_TLS_KEY: '/nonexistent.pem' }),
    ).toBe('REPORT_SMTP_TLS_CERT must be a readable PEM file, could not read "/nonexistent.pem" (ENOENT)');
    expect(refusal({ REPORT_SMTP_TLS_CERT: 'package.json', REPORT_SMTP_TLS_KEY: 'package.json' })).toBe(
      'REPORT_SMTP_TLS_CERT must be a PEM file, "package.json" is not one',
    );
  });
});
