import http from 'node:http';
import https from 'node:https';
import type { WebhookAllowList } from '../../../core/config.js';
import { guardedLookup, RefusedAddressError, refusedHost } from './webhooks.addresses.service.js';

/** The first this many bytes of a receiver's answer are kept, as text. */
export const EXCERPT_BYTES = 1024;

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Connect, send and the answer's status line within this long. */
  timeoutMs: number;
  /** The non-public networks and hosts the operator allows (WEBHOOKS_ALLOWED_NETWORKS). */
  allowedNetworks: WebhookAllowList;
}

export type WebhookResponse =
  | { ok: true; status: number; excerpt: string }
  | { ok: false; status: number | null; excerpt: string | null; error: string };

/** Text safe to store and show: valid UTF-8, no NUL or other control characters but tab and newlines. */
export function safeExcerpt(bytes: Buffer): string {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, EXCERPT_BYTES));
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '\ufffd');
}

/**
 * POSTs one signed webhook and reports what the receiver answered: 2xx is success. Redirects
 * are not followed (a 3xx is a failure, shown with its status): following one would send the
 * signed body to an address nobody registered, and each hop would need the same address check.
 * The connection goes only to public addresses and to those the operator allows (see
 * webhooks.addresses.service.ts). Never throws.
 */
export function postWebhook(req: WebhookRequest): Promise<WebhookResponse> {
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      resolve({ ok: false, status: null, excerpt: null, error: 'invalid URL' });
      return;
    }
    const refused = refusedHost(url, req.allowedNetworks);
    if (refused) {
      resolve({ ok: false, status: null, excerpt: null, error: `address refused: the URL ${refused}` });
      return;
    }
    let settled = false;
    const finish = (result: WebhookResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const body = Buffer.from(req.body, 'utf8');
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(url, {
      method: 'POST',
      headers: {
        ...req.headers,
        'content-type': 'application/json',
        'content-length': String(body.length),
        'user-agent': 'Vigil-Webhooks/1.0',
      },
      lookup: guardedLookup(req.allowedNetworks),
      agent: false,
    });
    const timer = setTimeout(() => {
      request.destroy(new Error(`no answer within ${req.timeoutMs / 1000} s`));
    }, req.timeoutMs);
    request.on('error', (err) => {
      const error =
        err instanceof RefusedAddressError || (err as { code?: string }).code === 'WEBHOOK_ADDRESS_REFUSED'
          ? `address refused: ${err.message}`
          : err.message;
      finish({ ok: false, status: null, excerpt: null, error });
    });
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        const excerpt = safeExcerpt(Buffer.concat(chunks));
        response.destroy();
        request.destroy();
        if (status >= 200 && status < 300) finish({ ok: true, status, excerpt });
        else finish({ ok: false, status, excerpt, error: `HTTP ${status}` });
      };
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= EXCERPT_BYTES) done();
      });
      response.on('end', done);
      response.on('error', done);
    });
    request.end(body);
  });
}
