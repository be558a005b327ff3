import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { freePort } from './server-process.js';

/** Answers true when a Redis on `port` replies to PING within `ms`. */
function pings(port: number, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), ms);
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk;
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
    socket.on('error', () => done(false));
  });
}

/**
 * A redis-server of the test's own, on a free port, without persistence: it can be frozen
 * (SIGSTOP: connections stay open, nothing answers), thawed, stopped and restarted on the same port.
 */
export class RedisServer {
  private child: ChildProcess | undefined;
  private constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<RedisServer> {
    const redis = new RedisServer(await freePort());
    await redis.restart();
    return redis;
  }

  /** Starts redis-server on this port (again) and waits until it answers PING. */
  async restart(): Promise<void> {
    if (this.child) throw new Error('redis-server is already running');
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    this.child = child;
    const deadline = Date.now() + 10_000;
    while (!(await pings(this.port, 200))) {
      if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
      if (Date.now() > deadline) throw new Error('redis-server did not answer PING within 10 s');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** SIGSTOP: the process keeps its connections but answers nothing. */
  freeze(): void {
    this.child?.kill('SIGSTOP');
  }

  /** SIGCONT: it answers again, starting with whatever was sent meanwhile. */
  thaw(): void {
    this.child?.kill('SIGCONT');
  }

  /** Kills the process (frozen or not) and waits for it to be gone: connections are refused. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }
}
