import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { createSecureContext } from 'node:tls';
import { ConfigError, host, integer } from './config-values.js';

/**
 * The reporting address's settings (docs/reporting-address.md): Vigil's own SMTP listener for
 * `report+<reporting id>@REPORT_DOMAIN`. Every one is checked whether the listener is on or not,
 * so a mistake is found when it is made, not on the day the port is set.
 */

/**
 * The largest reported message the intake reads (REPORTED_MESSAGE_MAX_BYTES of
 * modules/phishing/reports/reports.model.ts, which core cannot import; a test keeps them equal).
 */
export const REPORT_SMTP_MAX_BYTES_LIMIT = 10 * 1024 * 1024;
/** The smallest message limit: the header block alone may take 64 KiB. */
const REPORT_SMTP_MAX_BYTES_MIN = 64 * 1024;

export interface ReportSmtpConfig {
  /** `REPORT_SMTP_PORT` (0: a free port, for tests). */
  port: number;
  /** `REPORT_SMTP_HOST`: the address the listener binds to. */
  host: string;
  /** PEM files; STARTTLS is offered only when both are set. */
  tls: { certPath: string; keyPath: string } | undefined;
  /** The largest message accepted, announced with SIZE (`REPORT_SMTP_MAX_BYTES`). */
  maxBytes: number;
  /** Connections one client address (an IPv6 /64) may hold at once (`REPORT_SMTP_CONNECTIONS_PER_ADDRESS`). */
  connectionsPerAddress: number;
  /** Connections the listener holds at once in all (`REPORT_SMTP_MAX_CONNECTIONS`). */
  maxConnections: number;
}

const quoted = (raw: string) => JSON.stringify(raw);

/** `REPORT_DOMAIN`: a host name, lower case, without a trailing dot. */
export function reportDomain(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  const name = raw.toLowerCase().replace(/\.$/, '');
  const label = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
  if (name.length > 253 || isIP(name) !== 0 || !name.split('.').every((part) => label.test(part))) {
    throw new ConfigError(
      `REPORT_DOMAIN must be the domain name of the reporting addresses (e.g. reports.example.com), got ${quoted(raw)}`,
    );
  }
  return name;
}

function pemFile(name: string, path: string, marker: RegExp): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as { code?: string }).code ?? 'unreadable';
    throw new ConfigError(`${name} must be a readable PEM file, could not read ${quoted(path)} (${code})`);
  }
  if (!marker.test(text)) throw new ConfigError(`${name} must be a PEM file, ${quoted(path)} is not one`);
  return text;
}

function tlsFiles(env: NodeJS.ProcessEnv): ReportSmtpConfig['tls'] {
  const certPath = env.REPORT_SMTP_TLS_CERT ?? '';
  const keyPath = env.REPORT_SMTP_TLS_KEY ?? '';
  if (certPath === '' && keyPath === '') return undefined;
  if (certPath === '' || keyPath === '') {
    throw new ConfigError(
      `REPORT_SMTP_TLS_CERT and REPORT_SMTP_TLS_KEY must be set together (the certificate and its private key), got only ${certPath === '' ? 'REPORT_SMTP_TLS_KEY' : 'REPORT_SMTP_TLS_CERT'}`,
    );
  }
  const cert = pemFile('REPORT_SMTP_TLS_CERT', certPath, /-----BEGIN CERTIFICATE-----/);
  const key = pemFile('REPORT_SMTP_TLS_KEY', keyPath, /-----BEGIN [A-Z ]*PRIVATE KEY-----/);
  try {
    createSecureContext({ cert, key });
  } catch (err) {
    throw new ConfigError(
      `REPORT_SMTP_TLS_CERT and REPORT_SMTP_TLS_KEY are not a usable certificate and key: ${(err as Error).message}`,
    );
  }
  return { certPath, keyPath };
}

/**
 * The listener's settings, or undefined when `REPORT_SMTP_PORT` is unset (no listener); the
 * other values are checked all the same.
 */
export function reportSmtp(env: NodeJS.ProcessEnv, domain: string | undefined): ReportSmtpConfig | undefined {
  const rawPort = env.REPORT_SMTP_PORT ?? '';
  const port = integer(env, 'REPORT_SMTP_PORT', 0, 0, 65535);
  // Every interface unless told: the listener exists only when a port is set, and only to take
  // mail from other mail servers (the MX); it never relays and offers no authentication.
  const bindTo = env.REPORT_SMTP_HOST ?? '';
  const smtpHost = bindTo === '' ? '0.0.0.0' : hostOf(bindTo);
  const tls = tlsFiles(env);
  const maxBytes = integer(
    env,
    'REPORT_SMTP_MAX_BYTES',
    REPORT_SMTP_MAX_BYTES_LIMIT,
    REPORT_SMTP_MAX_BYTES_MIN,
    REPORT_SMTP_MAX_BYTES_LIMIT,
  );
  const connectionsPerAddress = integer(env, 'REPORT_SMTP_CONNECTIONS_PER_ADDRESS', 5, 1, 1000);
  const maxConnections = integer(env, 'REPORT_SMTP_MAX_CONNECTIONS', 100, 1, 10_000);
  if (rawPort === '') return undefined;
  if (domain === undefined) {
    throw new ConfigError(
      'REPORT_DOMAIN must be set when REPORT_SMTP_PORT is: the domain of the reporting addresses (report+<id>@REPORT_DOMAIN), whose MX record points at this host',
    );
  }
  return { port, host: smtpHost, tls, maxBytes, connectionsPerAddress, maxConnections };
}

function hostOf(raw: string): string {
  try {
    return host(raw);
  } catch {
    throw new ConfigError(
      `REPORT_SMTP_HOST must be an IP address or a host name to listen on (e.g. 0.0.0.0), got ${quoted(raw)}`,
    );
  }
}
