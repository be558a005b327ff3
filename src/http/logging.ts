import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type DestinationStream, type Logger, pino } from 'pino';

// Query parameters whose values must never reach a log line, should a client put a secret there.
const SECRET_QUERY = /([?&](?:api[_-]?key|key|token|secret|password)=)[^&]*/gi;
// Anything shaped like an API key, wherever in the URL a client put it; its public prefix stays.
const API_KEY_LIKE = /(vgl_[0-9A-Za-z]{8})[0-9A-Za-z]+/g;
// A learner link's token is its credential: the path segment after /learn/, whatever its shape.
const LEARNER_TOKEN = /(\/learn(?:\/|%2f))[^/?#]+/gi;

// Only a URL with a query, something key-shaped or a learner path can hold a secret.
const MAY_HOLD_SECRET = /[?]|vgl_|learn/i;

export function redactUrl(url: string | undefined): string | undefined {
  if (url === undefined || !MAY_HOLD_SECRET.test(url)) return url;
  return url
    .replace(SECRET_QUERY, '$1[redacted]')
    .replace(API_KEY_LIKE, '$1[redacted]')
    .replace(LEARNER_TOKEN, '$1[redacted]');
}

/** Accepts a sane client-supplied X-Request-Id, otherwise makes one. */
export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
}

/**
 * Structured JSON logs (pino): one line per request, with its id; no secrets, no bodies, no
 * headers. Without a stream of the caller's, lines go to standard output through a buffer
 * (written when 4 KiB have gathered, every half second, and at exit), so a busy server does not
 * make a write system call per request; a process killed with SIGKILL loses at most the last
 * half second of lines.
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
      },
    },
    destination,
  );
}
