import type { FastifyInstance, FastifyRequest } from 'fastify';

// An RFC 3986 host (registered name, IPv4 or IP literal) and port, as a URL writes them. WHATWG
// URL parsing accepts hosts such as `"` or `{` (or `%22`) that no URI may hold, and links must be URIs.
const URI_HOST = /^(?:\[[0-9a-f:.]+\]|[\w.~!$&'()*+,;=-]+)(?::\d+)?$/i;

/** A Host header (or forwarded host) a URL can hold; an absent one falls back to localhost. */
export function isUsableHost(host: string | undefined): boolean {
  if (!host) return true;
  const url = URL.parse(`http://${host}/`);
  return url !== null && URI_HOST.test(url.host);
}

/** This server by its listening address, as reached from this machine (a wildcard address as localhost). */
export function listeningUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/**
 * The base of every link shown to a person or mailed (invitations, setup and learner links):
 * PUBLIC_URL, else the address the server listens on. Never a request's Host (or forwarded
 * host), which the client chooses: a forged one would make the server hand out links to a host
 * of the attacker's, token included.
 */
export function publicBaseUrl(app: FastifyInstance): string {
  if (app.config.publicUrl) return app.config.publicUrl;
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : app.config.port;
  return listeningUrl(app.config.host, port);
}

/**
 * The base of simulations' links and tracking images: PHISH_URL, else publicBaseUrl. Never a
 * request's Host, for the same reason.
 */
export function phishBaseUrl(app: FastifyInstance): string {
  return app.config.phishUrl ?? publicBaseUrl(app);
}

/** A link to a path of this server (a base with a path of its own, `https://x.example/vigil`, keeps it). */
export function linkTo(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}

/**
 * The absolute URL of this request with other query parameters replaced (scheme and host as the
 * client used them). Only for answers to that same client (page links, `Location`), as the
 * contract asks; a link meant for anyone else is built by `linkTo(publicBaseUrl(app), …)`.
 */
export function absoluteUrl(
  request: FastifyRequest,
  path: string,
  query: Record<string, string> = {},
): string {
  const url = new URL(path, `${request.protocol}://${request.host || 'localhost'}`);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.toString();
}

// Page links already built (a client pages through the same lists again and again): parsing
// and serializing a URL costs more than the rest of a small page's envelope.
const pageUrls = new Map<string, string>();
const MAX_PAGE_URLS = 1000;

/** The same request's URL pointing at another page, every other query parameter kept. */
export function pageUrl(request: FastifyRequest, page: number): string {
  const key = `${request.protocol} ${request.host} ${page} ${request.url}`;
  let url = pageUrls.get(key);
  if (url === undefined) {
    url = absoluteUrl(request, request.url, { page: String(page) });
    if (pageUrls.size >= MAX_PAGE_URLS) pageUrls.delete(pageUrls.keys().next().value as string);
    pageUrls.set(key, url);
  }
  return url;
}
