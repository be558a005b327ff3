import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';

/** One client connection and the connection the proxy opened for it (once it has). */
interface Link {
  downstream: Socket;
  upstream: Socket | undefined;
}

/**
 * A TCP proxy standing in for the network between the server and its database: it can be
 * killed (every connection dropped, nothing listening) and started again on the same port,
 * or paused (every connection stays open but no byte moves either way, and new connections
 * are accepted without being forwarded: a frozen database) and resumed.
 */
export class TcpProxy {
  private server: Server | undefined;
  private links = new Set<Link>();
  private paused = false;
  port: number;

  /** `port` 0 picks a free port on the first start; later starts reuse it. */
  constructor(
    private readonly target: { host: string; port: number },
    port = 0,
  ) {
    this.port = port;
  }

  get listening(): boolean {
    return this.server !== undefined;
  }

  async start(): Promise<void> {
    if (this.server) return;
    const server = createServer((downstream) => this.accept(downstream));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** Stops listening and drops every open connection, as a network failure would. */
  async kill(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.paused = false;
    for (const link of this.links) this.drop(link);
    this.links.clear();
    if (server) await new Promise((resolve) => server.close(resolve));
  }

  /** Freezes every connection, open or new: bytes stay where they are, in both directions. */
  pause(): void {
    this.paused = true;
    for (const link of this.links) {
      link.downstream.unpipe();
      link.upstream?.unpipe();
      link.downstream.pause();
      link.upstream?.pause();
    }
  }

  /** Forwards again everything that waited, and connects the clients that arrived meanwhile. */
  resume(): void {
    this.paused = false;
    for (const link of this.links) this.forward(link);
  }

  private accept(downstream: Socket): void {
    const link: Link = { downstream, upstream: undefined };
    this.links.add(link);
    downstream.on('error', () => this.drop(link));
    downstream.on('close', () => this.drop(link));
    downstream.pause();
    if (!this.paused) this.forward(link);
  }

  private forward(link: Link): void {
    if (link.downstream.destroyed) return;
    if (!link.upstream) {
      const upstream = tcpConnect(this.target.port, this.target.host);
      upstream.on('error', () => this.drop(link));
      upstream.on('close', () => this.drop(link));
      link.upstream = upstream;
    }
    link.downstream.pipe(link.upstream);
    link.upstream.pipe(link.downstream);
  }

  private drop(link: Link): void {
    this.links.delete(link);
    link.downstream.destroy();
    link.upstream?.destroy();
  }
}
