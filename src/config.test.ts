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

  it('says what is wrong in one line, whatever the value holds', () => {
    const message = refusal({ WORKERS: 'maybe\nrm -rf /' });
    expect(message).toBe('WORKERS must be on or off, got "maybe\\nrm -rf /"');
    expect(message).not.toContain('\n');
  });
});
