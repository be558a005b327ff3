import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy does with one request instead of forwarding it as it is. */
export type Fault =
  /** Forwards the request, lets the server do the work, then closes the connection without answering. */
  | { kind: 'drop-response' }
  /** Closes the connection without forwarding (the server never sees the request). */
  | { kind: 'drop-request' }
  /** Answers this itself (the server never sees the request). */
  | { kind: 'answer'; status: number; headers?: Record<string, string>; body?: unknown };

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** What happened to it: forwarded, or the fault applied. */
  outcome: 'forwarded' | Fault['kind'];
}

/**
 * An HTTP proxy in front of a real server that applies the faults queued for the requests that
 * match (a lost answer, a 503 with `Retry-After` …) and forwards everything else, recording
 * every request it saw.
 */
export class FaultyProxy {
  readonly seen: SeenRequest[] = [];
  #faults: { match: (r: { method: string; url: string }) => boolean; fault: Fault }[] = [];
  #server: Server;
  baseUrl = '';

  constructor(readonly upstream: string) {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const method = req.method ?? 'GET';
        const url = req.url ?? '/';
        const index = this.#faults.findIndex((f) => f.match({ method, url }));
        const fault = index === -1 ? undefined : this.#faults.splice(index, 1)[0]?.fault;
        this.seen.push({ method, url, headers: req.headers, body, outcome: fault?.kind ?? 'forwarded' });
        if (fault?.kind === 'drop-request') return void req.socket.destroy();
        if (fault?.kind === 'answer') {
          res.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers });
          return void res.end(fault.body === undefined ? '' : JSON.stringify(fault.body));
        }
        const headers = { ...req.headers } as Record<string, string>;
        delete headers.host;
        delete headers.connection;
        delete headers['content-length'];
        const answer = await fetch(this.upstream + url, {
          method,
          headers,
          ...(body === '' ? {} : { body }),
        });
        const text = await answer.text();
        if (fault?.kind === 'drop-response') return void req.socket.destroy();
        const out: Record<string, string> = {};
        answer.headers.forEach((value, name) => {
          if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name)) {
            out[name] = value;
          }
        });
        res.writeHead(answer.status, out);
        res.end(text);
      });
    });
  }

  async start(): Promise<this> {
    this.#server.listen(0, '127.0.0.1');
    await once(this.#server, 'listening');
    this.baseUrl = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  /** Applies `fault` to the next request with this method whose path starts with `pathPrefix`. */
  once(method: string, pathPrefix: string, fault: Fault): void {
    this.#faults.push({ match: (r) => r.method === method && r.url.startsWith(pathPrefix), fault });
  }

  /** The requests seen with this method and path prefix. */
  requests(method: string, pathPrefix: string): SeenRequest[] {
    return this.seen.filter((r) => r.method === method && r.url.startsWith(pathPrefix));
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    this.#server.close();
    await once(this.#server, 'close');
  }
}
