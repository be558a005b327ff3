import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterFile } from './cleanup.js';

/** Changes a token endpoint's JSON answer (its `id_token` above all) before the client sees it. */
export type TokenRewrite = (answer: Record<string, unknown>) => Promise<Record<string, unknown>>;

/**
 * An HTTP proxy on 127.0.0.1 in front of an identity provider: every request goes on unchanged
 * (the Host header too, so the provider names the proxy's address in its discovery document),
 * and the answer of `tokenPath` goes through `rewrite` when one is set. Tests use it to hand
 * the real client ID tokens that a certified provider would never issue. Closed after the file's tests.
 */
export async function startIdTokenProxy(tokenPath = '/token') {
  let upstream: URL | undefined;
  let rewrite: TokenRewrite | null = null;
  const read = async (stream: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  const server = createServer(async (req, res) => {
    if (!upstream) {
      res.writeHead(502).end('no upstream yet');
      return;
    }
    const body = await read(req);
    const forwarded = httpRequest({
      host: upstream.hostname,
      port: upstream.port,
      method: req.method,
      path: req.url,
      headers: req.headers,
    });
    forwarded.on('error', () => res.writeHead(502).end());
    forwarded.on('response', async (answer) => {
      let payload = await read(answer);
      const headers = { ...answer.headers };
      const path = new URL(req.url ?? '/', 'http://proxy').pathname;
      if (rewrite && path === tokenPath && answer.statusCode === 200) {
        const json = JSON.parse(payload.toString('utf8')) as Record<string, unknown>;
        payload = Buffer.from(JSON.stringify(await rewrite(json)));
        headers['content-length'] = String(payload.length);
        delete headers.etag;
      }
      res.writeHead(answer.statusCode ?? 502, headers).end(payload);
    });
    forwarded.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterFile(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Where requests go on to (the provider's own address), once it is started. */
    forwardTo(address: string) {
      upstream = new URL(address);
    },
    /** How the next token answers are changed; null passes them unchanged. */
    rewriteTokens(next: TokenRewrite | null) {
      rewrite = next;
    },
  };
}
