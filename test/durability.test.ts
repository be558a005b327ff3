import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from './helpers/app.js';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';
import { runCli, type ServerProcess, startServer } from './helpers/server-process.js';

// Real server processes (the built dist/server.js) on one throwaway database: what a client
// was told was created must still be there after the process dies, however it dies.

const API = '/api/api_gateway';

let testDb: TestDatabase;
let env: NodeJS.ProcessEnv;
let key: string;
const servers: ServerProcess[] = [];

async function cli(args: string[]): Promise<Record<string, unknown>> {
  const res = await runCli([...args, '--json'], env);
  if (res.code !== 0) throw new Error(`vigil ${args.join(' ')} failed:\n${res.stderr}`);
  return JSON.parse(res.stdout);
}

async function server(): Promise<ServerProcess> {
  const started = await startServer(env);
  servers.push(started);
  return started;
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  env = testEnv(testDb.url);
  const account = await cli(['account', 'create', '--name', 'Durability']);
  const created = await cli([
    'key',
    'create',
    '--account',
    String(account.id),
    '--name',
    'durability',
    '--grant',
    'employees:rw',
    '--rate-limit',
    '1000000',
  ]);
  key = created.key as string;
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop('SIGKILL')));
});

afterAll(async () => {
  await testDb?.drop();
});

interface Employee {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  created_at: string;
  updated_at: string;
}

function createEmployee(baseUrl: string, body: unknown): Promise<Response> {
  return fetch(`${baseUrl}${API}/customer/employees/`, {
    method: 'POST',
    headers: { apikey: key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function readEmployee(baseUrl: string, id: number): Promise<Response> {
  return fetch(`${baseUrl}${API}/customer/employees/${id}/`, { headers: { apikey: key } });
}

/** Resolves when a new TCP connection to the port is refused (bounded wait). */
async function connectionsRefused(port: number): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
    });
    if (refused) return;
    if (Date.now() > deadline) throw new Error(`port ${port} still accepts connections`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('kill -9 during a burst of creates', () => {
  it('loses no employee whose creation was answered 201', async () => {
    const first = await server();
    const total = 300;
    const inFlight = 20;
    const killAfter = 100;
    const acknowledged: Employee[] = [];
    const unexpected: string[] = [];
    let next = 0;
    let killed: Promise<number | null> | undefined;

    async function worker(): Promise<void> {
      while (next < total && !killed) {
        const i = next++;
        const sent = { first_name: ` Burst${i} `, last_name: 'Durable', email: `burst.${i}@example.com` };
        let res: Response;
        try {
          res = await createEmployee(first.baseUrl, sent);
        } catch (err) {
          if (!killed) unexpected.push(`request ${i}: ${(err as Error).message}`);
          return;
        }
        if (res.status !== 201) {
          unexpected.push(`request ${i}: ${res.status} ${await res.text()}`);
          return;
        }
        // A 201 whose body did not fully arrive was never really acknowledged.
        let employee: Employee;
        try {
          employee = (await res.json()) as Employee;
        } catch {
          return;
        }
        expect(employee).toMatchObject({ first_name: `Burst${i}`, email: `burst.${i}@example.com` });
        acknowledged.push(employee);
        if (acknowledged.length >= killAfter && !killed) killed = first.stop('SIGKILL');
      }
    }

    await Promise.all(Array.from({ length: inFlight }, worker));
    expect(unexpected).toEqual([]);
    expect(killed).toBeDefined();
    expect(await killed).toBeNull();
    expect(first.child.signalCode).toBe('SIGKILL');
    // Killed mid-burst: after the kill no new request was sent, so at most the ones in flight joined.
    expect(acknowledged.length).toBeGreaterThanOrEqual(killAfter);
    expect(acknowledged.length).toBeLessThan(killAfter + inFlight);

    const second = await server();
    for (const employee of acknowledged) {
      const res = await readEmployee(second.baseUrl, employee.id);
      expect(res.status, `employee ${employee.id}`).toBe(200);
      expect(await res.json()).toEqual(employee);
    }
    const list = await fetch(`${second.baseUrl}${API}/customer/employees/?page_size=1000`, {
      headers: { apikey: key },
    });
    const page = (await list.json()) as { count: number; results: Employee[] };
    expect(page.count).toBeGreaterThanOrEqual(acknowledged.length);
    // Nothing half-written: every stored employee is whole and unique.
    expect(new Set(page.results.map((e) => e.email)).size).toBe(page.results.length);
    for (const e of page.results) expect(e.last_name).toBe('Durable');
  });
});

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Splits what arrived on one HTTP/1.1 connection into its responses (Content-Length framed). */
function parseResponses(raw: Buffer): RawResponse[] {
  const responses: RawResponse[] = [];
  let at = 0;
  for (;;) {
    const end = raw.indexOf('\r\n\r\n', at);
    if (end < 0) return responses;
    const [statusLine = '', ...lines] = raw.subarray(at, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    if (raw.length < end + 4 + length) return responses;
    const body = raw.subarray(end + 4, end + 4 + length).toString('utf8');
    responses.push({ status: Number(statusLine.split(' ')[1]), headers, body });
    at = end + 4 + length;
  }
}

function postHead(body: string, extra = ''): string {
  return (
    `POST ${API}/customer/employees/ HTTP/1.1\r\nHost: 127.0.0.1\r\napikey: ${key}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n`
  );
}

/** Resolves once `test` holds for what the socket has received, or rejects when it closes first. */
function receivedUntil(socket: Socket, received: () => Buffer, test: (raw: Buffer) => boolean) {
  return new Promise<void>((resolve, reject) => {
    const check = () => {
      if (!test(received())) return;
      socket.off('data', check);
      socket.off('close', closed);
      resolve();
    };
    const closed = () => {
      check();
      reject(new Error(`connection closed; received:\n${received().toString()}`));
    };
    socket.on('data', check);
    socket.on('close', closed);
    check();
  });
}

describe.each(['SIGTERM', 'SIGINT'] as const)('graceful shutdown on %s', (signal) => {
  it('finishes the requests being received, refuses new connections, exits 0, keeps the writes', async () => {
    const running = await server();
    const port = Number(new URL(running.baseUrl).port);
    const tag = signal.toLowerCase();
    const slow = JSON.stringify({
      first_name: 'Slow',
      last_name: 'Writer',
      email: `slow.${tag}@example.com`,
    });
    const next = JSON.stringify({
      first_name: 'Next',
      last_name: 'Writer',
      email: `next.${tag}@example.com`,
    });

    const socket = connect(port, '127.0.0.1');
    let raw = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      raw = Buffer.concat([raw, chunk]);
    });
    await once(socket, 'connect');
    // The server answers 100 Continue once it holds the headers: the request is in its hands.
    socket.write(postHead(slow, 'Expect: 100-continue\r\n') + slow.slice(0, slow.length / 2));
    await receivedUntil(
      socket,
      () => raw,
      (r) => r.includes('100 Continue'),
    );
    const exited = once(running.child, 'close'); // after the exit and all output

    running.child.kill(signal);
    await connectionsRefused(port);
    expect(running.child.exitCode).toBeNull(); // still finishing the request being received
    // The rest of the slow body, and another request pipelined behind it on the same connection.
    socket.write(slow.slice(slow.length / 2) + postHead(next) + next);
    await receivedUntil(
      socket,
      () => raw,
      (r) => parseResponses(r).length === 3,
    );
    socket.destroy();

    const [, first, second] = parseResponses(raw);
    expect(first?.status, first?.body).toBe(201);
    expect(second?.status, second?.body).toBe(201);
    expect(second?.headers.connection).toBe('close');
    const created = [JSON.parse(first!.body), JSON.parse(second!.body)] as Employee[];
    expect(created[0]).toMatchObject({ first_name: 'Slow', email: `slow.${tag}@example.com` });
    expect(created[1]).toMatchObject({ first_name: 'Next', email: `next.${tag}@example.com` });
    const [code] = await exited;
    expect(code).toBe(0);
    expect(running.output()).toContain(`"signal":"${signal}","msg":"shutting down"`);

    const restarted = await server();
    for (const employee of created) {
      const read = await readEmployee(restarted.baseUrl, employee.id);
      expect(read.status).toBe(200);
      expect(await read.json()).toEqual(employee);
    }
  });
});
