import type { FastifyInstance } from 'fastify';

/**
 * The one rule that keeps credentials out of log lines. A route whose address carries a
 * credential (the token of a setup, invitation or learner link; whatever link comes next)
 * declares it: `config: { secretParams: ['token'] }` (or `secretQuery` for a query parameter).
 * From those declarations every URL that reaches a log line (the request line, an error's
 * message or stack) has that segment replaced by `[redacted]`: under the route itself, and
 * under any address that starts like it (a mistyped link that matches no route, `..` or doubled
 * slashes, percent-encoding, another case). A parameter named like a secret (`token`, `…Token`,
 * `secret`, `password`) that is not declared stops the app at boot.
 *
 * The declarations are kept per process, not per app: the logger exists before any app (the
 * server logs while it waits for its database) and route patterns are code, the same in every
 * app a process builds.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Path parameters that are credentials: never written to a log line. */
    secretParams?: string[];
    /** Query parameters that are credentials: never written to a log line. */
    secretQuery?: string[];
  }
}

const REDACTED = '[redacted]';

// Query parameters redacted under every route: a client may put a key or a token there.
const ALWAYS_SECRET_QUERY = ['apikey', 'api_key', 'api-key', 'key', 'token', 'secret', 'password'];
// Anything shaped like an API key, wherever in a URL or message it is; its public prefix stays.
const API_KEY_LIKE = /(vgl_[0-9A-Za-z]{8})[0-9A-Za-z]+/g;
// A route parameter named like this must be declared in `secretParams`.
const SECRET_LIKE_NAME = /token|secret|password|credential/i;
// Path separators as a client may write them, an encoded slash included (kept in the output).
const SEPARATOR = /(\/|%2f)/i;
const QUERY_PAIR = /([?&#;])([^=&#;]*)=([^&#;]*)/g;
// A run of characters in a message that may be a URL or a path (if it holds a slash).
const WORD = /[^\s"'<>`()]+/g;
const HAS_SEPARATOR = /\/|%2f/i;

type Segment = { kind: 'static'; text: string } | { kind: 'param' } | { kind: 'secret' };

function decodeSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The parameter names of a route pattern (`/learn/:token/courses/:courseKey` → token, courseKey). */
export function routeParams(pattern: string): string[] {
  return [...pattern.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
}

/** The declared token-bearing routes, and the redaction they imply. */
export class SecretUrls {
  private readonly rules = new Map<string, Segment[]>();
  private readonly queryNames = new Set(ALWAYS_SECRET_QUERY);
  // Only a URL holding one of these can hold a secret; most requests skip all other work.
  private mayHoldSecret = /[?#%]|vgl_/i;

  /** Records a route pattern's secret path and query parameters. */
  declare(pattern: string, secretParams: readonly string[] = [], secretQuery: readonly string[] = []): void {
    for (const name of secretQuery) this.queryNames.add(name.toLowerCase());
    if (secretParams.length === 0) return;
    const segments: Segment[] = pattern
      .split('/')
      .filter((s) => s !== '')
      .map((s): Segment => {
        const names = routeParams(s);
        if (names.some((n) => secretParams.includes(n))) return { kind: 'secret' };
        if (names.length > 0 || s.includes('*')) return { kind: 'param' };
        return { kind: 'static', text: s.toLowerCase() };
      });
    // What follows the last secret segment does not matter: the rule covers every path under it.
    let last = segments.length - 1;
    while (last >= 0 && segments[last]!.kind !== 'secret') last--;
    const rule = segments.slice(0, last + 1);
    const key = rule.map((s) => (s.kind === 'static' ? s.text : `:${s.kind}`)).join('/');
    if (this.rules.has(key)) return;
    this.rules.set(key, rule);
    this.mayHoldSecret = this.compileCheck();
  }

  /** The URL (path and query) with every credential replaced by `[redacted]`. */
  redactUrl(url: string): string {
    if (!this.mayHoldSecret.test(url)) return url;
    const cut = url.search(/[?#]/);
    const path = cut === -1 ? url : url.slice(0, cut);
    const query = cut === -1 ? '' : url.slice(cut);
    return `${this.redactPath(path)}${this.redactQuery(query)}`.replace(API_KEY_LIKE, `$1${REDACTED}`);
  }

  /** Free text (an error's message or stack) with every URL in it redacted. */
  redactText(text: string): string {
    return text
      .replace(WORD, (word) => (HAS_SEPARATOR.test(word) ? this.redactUrl(word) : word))
      .replace(API_KEY_LIKE, `$1${REDACTED}`);
  }

  /** A quick test that a URL holds nothing any rule could match: the static segment before each secret. */
  private compileCheck(): RegExp {
    const anchors: string[] = ['[?#%]', 'vgl_'];
    for (const rule of this.rules.values()) {
      const secretAt = rule.findIndex((s) => s.kind === 'secret');
      const before = rule
        .slice(0, secretAt)
        .reverse()
        .find((s): s is { kind: 'static'; text: string } => s.kind === 'static');
      // A secret with no fixed text before it could be anywhere: every URL is checked.
      if (!before) return /(?:)/;
      anchors.push(escapeRegExp(before.text));
    }
    return new RegExp(anchors.join('|'), 'i');
  }

  /**
   * Matches each rule anywhere in the path as a browser would resolve it (empty and `.`
   * segments dropped, `..` going up, percent-decoded, any case) and replaces the raw segments
   * its secrets fall on.
   */
  private redactPath(path: string): string {
    const parts = path.split(SEPARATOR); // segment, separator, segment, …
    const at: number[] = []; // indexes in `parts` of the resolved path's segments
    const names: string[] = [];
    for (let i = 0; i < parts.length; i += 2) {
      const name = decodeSegment(parts[i]!).toLowerCase();
      if (name === '' || name === '.') continue;
      if (name === '..') {
        at.pop();
        names.pop();
        continue;
      }
      at.push(i);
      names.push(name);
    }
    let changed = false;
    for (const rule of this.rules.values()) {
      for (let start = 0; start + rule.length <= names.length; start++) {
        const matches = rule.every((s, k) => s.kind !== 'static' || s.text === names[start + k]);
        if (!matches) continue;
        rule.forEach((s, k) => {
          if (s.kind === 'secret') parts[at[start + k]!] = REDACTED;
        });
        changed = true;
      }
    }
    return changed ? parts.join('') : path;
  }

  private redactQuery(query: string): string {
    if (query === '') return query;
    return query.replace(QUERY_PAIR, (pair, separator: string, name: string, value: string) => {
      const secret =
        this.queryNames.has(decodeSegment(name).trim().toLowerCase()) ||
        // A value that is itself a token-bearing address (`?next=/admin/invite/…`).
        (HAS_SEPARATOR.test(value) && this.redactPath(decodeSegment(value)) !== decodeSegment(value));
      return secret ? `${separator}${name}=${REDACTED}` : pair;
    });
  }
}

/** The rule of this process: filled from the routes' declarations as apps are built. */
export const secretUrls = new SecretUrls();

export function redactUrl(url: string): string;
export function redactUrl(url: string | undefined): string | undefined;
export function redactUrl(url: string | undefined): string | undefined {
  return url === undefined ? url : secretUrls.redactUrl(url);
}

export function redactText(text: string): string {
  return secretUrls.redactText(text);
}

/**
 * Must run before the routes are registered: records each route's secret parameters, and
 * refuses a route whose parameter is named like a secret without declaring it one.
 */
export function registerSecretRoutes(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const declared = route.config?.secretParams ?? [];
    const params = routeParams(route.url);
    for (const name of declared) {
      if (!params.includes(name)) {
        throw new Error(
          `route ${route.method} ${route.url} declares secretParams '${name}', not one of its parameters`,
        );
      }
    }
    for (const name of params) {
      if (SECRET_LIKE_NAME.test(name) && !declared.includes(name)) {
        throw new Error(
          `route ${route.method} ${route.url}: the parameter :${name} looks like a credential; ` +
            'list it in config.secretParams',
        );
      }
    }
    secretUrls.declare(route.url, declared, route.config?.secretQuery);
  });
}
