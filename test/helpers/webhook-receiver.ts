import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterFile } from './cleanup.js';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A real HTTP receiver on 127.0.0.1 that keeps every request it got. `answer` decides the
 * status and body of each (200 "ok" by default); it may also wait before answering.
 */
export async function startReceiver(
  answer: (
    req: ReceivedWebhook,
  ) => Promise<{ status: number; body?: string }> | { status: number; body?: string } = () => ({
    status: 200,
    body: 'ok',
  }),
) {
  const received: ReceivedWebhook[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const hook = {
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(hook);
      try {
        const { status, body } = await answer(hook);
        res.writeHead(status, { 'content-type': 'text/plain' }).end(body ?? '');
      } catch {
        res.destroy();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  afterFile(close);
  return { url: `http://127.0.0.1:${port}`, received, close };
}
