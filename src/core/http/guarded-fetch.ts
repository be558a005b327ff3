import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { WebhookAllowList } from '../config.js';
import { addressRefusal, guardedLookup, hostOf, isListedHost, refusedHost } from '../outbound-addresses.js';

/**
 * A `fetch` for requests Vigil makes on a tenant's behalf to a URL the tenant gave (an identity
 * provider's discovery document, keys, token endpoint, SAML metadata): only to the addresses
 * webhooks may reach (`core/outbound-addresses.ts`, checked on the address connected to), never
 * following a redirect, reading at most `maxBytes` of the answer within `timeoutMs`.
 */
export interface GuardedFetchOptions {
  allowList: WebhookAllowList;
  timeoutMs: number;
  maxBytes: number;
}

export class OutboundRefusedError extends Error {
  readonly code = 'OUTBOUND_REFUSED';
}

/**
 * Whether plain `http:` may be used for this URL: only when the operator listed its address or
 * host name (a test's or an internal identity provider); everywhere else HTTPS is required.
 */
export function plainHttpAllowed(url: URL, list: WebhookAllowList): boolean {
  const host = hostOf(url);
  if (isIP(host) !== 0)
    return list.networks.length > 0 && addressRefusal(host, list) === null && !isPublic(host);
  return isListedHost(host, list);
}

const isPublic = (address: string) => addressRefusal(address) === null;

export function guardedFetch(options: GuardedFetchOptions) {
  return async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new OutboundRefusedError(`${url.protocol} URLs are not fetched`);
    }
    const refused = refusedHost(url, options.allowList);
    if (refused) throw new OutboundRefusedError(`the URL ${refused}`);
    const method = init.method ?? (input instanceof Request ? input.method : 'GET');
    const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined));
    let body: Buffer | undefined;
    if (init.body !== undefined && init.body !== null) {
      if (typeof init.body === 'string') body = Buffer.from(init.body, 'utf8');
      else if (init.body instanceof URLSearchParams) {
        body = Buffer.from(init.body.toString(), 'utf8');
        if (!headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded');
      } else body = Buffer.from(await new Response(init.body).arrayBuffer());
    }
    if (body) headers.set('content-length', String(body.length));
    const outgoing: Record<string, string> = {};
    headers.forEach((value, key) => {
      outgoing[key] = value;
    });
    return new Promise<Response>((resolve, reject) => {
      const client = url.protocol === 'https:' ? https : http;
      const request = client.request(url, {
        method,
        headers: outgoing,
        lookup: guardedLookup(options.allowList),
        agent: false,
      });
      const timer = setTimeout(() => {
        request.destroy(new Error(`no answer within ${options.timeoutMs / 1000} s`));
      }, options.timeoutMs);
      request.on('error', (err) => {
        clearTimeout(timer);
        reject(
          (err as { code?: string }).code === 'WEBHOOK_ADDRESS_REFUSED'
            ? new OutboundRefusedError(err.message)
            : err,
        );
      });
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > options.maxBytes) {
            request.destroy(new OutboundRefusedError(`the answer is larger than ${options.maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        response.on('error', (err) => {
          clearTimeout(timer);
          reject(err);
        });
        response.on('end', () => {
          clearTimeout(timer);
          const answer = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (value === undefined) continue;
            for (const v of [value].flat()) answer.append(name, v);
          }
          const status = response.statusCode ?? 502;
          const noBody = status === 204 || status === 304 || method === 'HEAD';
          resolve(new Response(noBody ? null : Buffer.concat(chunks), { status, headers: answer }));
        });
      });
      if (body) request.end(body);
      else request.end();
    });
  };
}
