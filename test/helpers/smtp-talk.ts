import { connect, type Socket } from 'node:net';

/**
 * A raw SMTP conversation over one TCP connection, for what a mail client library would not
 * send: commands it refuses to write, a DATA that never ends, many connections at once.
 */
export interface SmtpTalk {
  socket: Socket;
  /** The next whole reply (all its lines), or null once the connection is closed. */
  reply(timeoutMs?: number): Promise<string | null>;
  /** Sends a command line and returns its reply. */
  command(line: string): Promise<string | null>;
  write(data: string | Buffer): Promise<void>;
  /** Resolves once the server has closed the connection. */
  closed: Promise<void>;
  end(): void;
}

export async function smtpTalk(port: number, host = '127.0.0.1'): Promise<SmtpTalk> {
  const socket = connect(port, host);
  socket.on('error', () => {}); // a reset by the server is what some tests expect
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let buffer = '';
  let ended = false;
  const waiting: Array<() => void> = [];
  const wake = () => {
    for (const w of waiting.splice(0)) w();
  };
  socket.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('latin1');
    wake();
  });
  const closed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      ended = true;
      wake();
      resolve();
    }),
  );

  /** A whole reply at the start of the buffer: lines up to one whose code is followed by a space. */
  const takeReply = (): string | null => {
    let start = 0;
    for (;;) {
      const end = buffer.indexOf('\r\n', start);
      if (end < 0) return null;
      const line = buffer.slice(start, end);
      start = end + 2;
      if (!/^\d{3}-/.test(line)) {
        const reply = buffer.slice(0, end);
        buffer = buffer.slice(start);
        return reply;
      }
    }
  };

  async function reply(timeoutMs = 10_000): Promise<string | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const taken = takeReply();
      if (taken !== null) return taken;
      if (ended) return null;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no SMTP reply within ${timeoutMs} ms (have ${JSON.stringify(buffer)})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiting.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  const write = (data: string | Buffer) =>
    new Promise<void>((resolve) => {
      if (socket.destroyed || !socket.writable) return resolve();
      socket.write(data, () => resolve());
    });

  return {
    socket,
    reply,
    write,
    async command(line) {
      await write(`${line}\r\n`);
      return reply();
    },
    closed,
    end: () => socket.destroy(),
  };
}
