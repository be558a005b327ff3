import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type DestinationStream, type Logger, pino } from 'pino';
import { redactText, redactUrl } from './redaction.js';

/** A logged value with the credentials in its strings redacted (an error's message, stack, URL…). */
function redactStrings(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 4) return '[nested too deep]';
  if (value instanceof Date) return value;
  if (ArrayBuffer.isView(value)) return '[binary]';
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) copy[key] = redactStrings(item, depth + 1);
  }
  return copy;
}

/** Accepts a sane client-supplied X-Request-Id, otherwise makes one. */
export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
}

/**
 * Structured JSON logs (pino): one line per request, with its id; no secrets, no bodies, no
 * headers; URLs and errors pass through the one redaction rule (`redaction.ts`). Without a
 * stream of the caller's, lines go to standard output through a buffer (written when 4 KiB have
 * gathered, every half second, and at exit), so a busy server does not make a write system call
 * per request; a process killed with SIGKILL loses at most the last half second of lines.
 */
export function createLogger(level: string, stream?: DestinationStream): Logger {
  const destination =
    stream ?? pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 500 });
  return pino(
    {
      level,
      redact: {
        paths: ['req.headers.apikey', 'req.headers.authorization', 'req.headers.cookie', 'headers.apikey'],
        censor: '[redacted]',
      },
      serializers: {
        req: (req: { method: string; url: string; ip?: string }) => ({
          method: req.method,
          url: redactUrl(req.url),
          ip: req.ip,
        }),
        // An error's message or stack may quote a URL (a failed request, an invalid address), and
        // so may the text of one (a mail server's reply in `error`, a database's in `reason`).
        err: (err: unknown) => redactStrings(pino.stdSerializers.err(err as Error)),
        error: redactStrings,
        reason: redactStrings,
      },
    },
    destination,
  );
}
