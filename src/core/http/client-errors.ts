import { randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ConnectionError, FastifyBaseLogger, FastifyHttpOptions, FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import {
  type AppError,
  badRequest,
  expectationFailed,
  headerFieldsTooLarge,
  hostRequired,
  invalidHost,
  payloadTooLarge,
  requestTimeout,
} from '../errors.js';
import { API_VERSION } from './api-version.js';
import { errorBody } from './errors.js';
import { SECURITY_HEADERS } from './headers.js';

/**
 * Some answers are given by Node's HTTP layer before Fastify sees a request: parser errors,
 * timeouts, an HTTP/1.1 request without Host, an unknown `Expect`, `CONNECT`. Node and Fastify
 * answer them in their own shapes; here they get the contract's shape and headers instead.
 */

// Headers must arrive within this long, however long the whole request may take.
const HEADERS_TIMEOUT_MS = 10_000;
// How often Node looks for requests past their time: a 408 comes at most this late.
const TIMEOUT_CHECK_INTERVAL_MS = 500;
// After answering a request the parser refused, what the client still sends is read and dropped
// for this long before the connection closes: closing with unread data resets the connection,
// and the client may then lose the answer.
const LINGER_MS = 2000;

/** The answer to give a socket that Node reports an error on. */
function errorFor(code: string): AppError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return headerFieldsTooLarge();
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return payloadTooLarge();
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return requestTimeout();
    default:
      return badRequest();
  }
}

/** An error answer in the contract's shape, ending the connection. */
function contractAnswer(error: AppError): { id: string; headers: Record<string, string>; body: string } {
  const id = randomUUID();
  const body = JSON.stringify(errorBody(error, id));
  const headers = {
    ...SECURITY_HEADERS,
    ...error.headers,
    'X-API-Version': API_VERSION,
    'X-Request-Id': id,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    Date: new Date().toUTCString(),
    Connection: 'close',
  };
  return { id, headers, body };
}

function rawAnswer(error: AppError): { id: string; text: string } {
  const { id, headers, body } = contractAnswer(error);
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return {
    id,
    text: `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\n${lines.join('')}\r\n${body}`,
  };
}

/** Sends the answer and closes once the client stops sending (or after LINGER_MS). */
function answerAndLinger(socket: Duplex, text: string): void {
  socket.end(text);
  const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
  socket.once('close', () => clearTimeout(timer));
}

function answerResponse(res: ServerResponse, error: AppError, log: FastifyBaseLogger | undefined): void {
  const { id, headers, body } = contractAnswer(error);
  log?.info({ reqId: id, status: error.status }, 'client error');
  res.writeHead(error.status, headers).end(body);
}

type HttpSocket = Socket & {
  /** Node's response in progress on this connection, if any. */
  _httpMessage?: (ServerResponse & { _headerSent?: boolean }) | null;
};

// Sockets already answered: Node reports every chunk that still arrives after a parser error again.
const answered = new WeakSet<Duplex>();

/**
 * Fastify's `clientErrorHandler` (bound to the instance): answers what Node's parser refused, or
 * a request that did not arrive in time, once, without corrupting an answer already under way.
 */
export function clientErrorHandler(this: FastifyInstance, err: ConnectionError, socket: Socket): void {
  const conn = socket as HttpSocket;
  if (answered.has(conn)) return;
  if (conn.destroyed || err.code === 'ECONNRESET' || err.code === 'EPIPE') {
    conn.destroy();
    return;
  }
  const timedOut = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const inFlight = conn._httpMessage;
  const started = inFlight != null && (inFlight.headersSent || inFlight._headerSent === true);
  // A connection that never sent a byte made no request: it is closed, not answered.
  const silent = timedOut && conn.bytesRead === 0;
  if (!conn.writable || started || silent) {
    conn.destroy();
    return;
  }
  const error = errorFor(err.code);
  const { id, text } = rawAnswer(error);
  this.log.info({ reqId: id, status: error.status, code: err.code }, 'client error');
  answered.add(conn);
  if (timedOut || inFlight) {
    // The parser may still deliver the rest of this request (or the app may still be answering
    // an earlier one): close at once so that nothing runs after the client was told it failed.
    conn.write(text);
    conn.destroy();
  } else {
    answerAndLinger(conn, text);
  }
}

/**
 * RFC 9112 §3.2: an HTTP/1.1 request without Host, or any request with two, is a 400 (Node
 * keeps the first of two, where a proxy in front may have used the other).
 */
function hostProblem(req: IncomingMessage): AppError | undefined {
  let hosts = 0;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host') hosts++;
  }
  if (hosts > 1) return invalidHost();
  if (hosts === 0 && req.httpVersionMajor === 1 && req.httpVersionMinor === 1) return hostRequired();
  return undefined;
}

function isLogger(value: unknown): value is FastifyBaseLogger {
  return typeof (value as FastifyBaseLogger | undefined)?.info === 'function';
}

/**
 * The HTTP/1.1 server under Fastify (its `serverFactory`): Node's timeouts from the
 * configuration, and the requests Node would answer itself routed to contract answers.
 */
function createContractServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  fastifyOptions: Record<string, unknown>,
  requestTimeoutMs: number,
): Server {
  const log = isLogger(fastifyOptions.logger) ? fastifyOptions.logger : undefined;
  // Fastify sets none of its server options on a server it is given: those the app uses are here.
  const server = createServer({
    requestTimeout: requestTimeoutMs,
    headersTimeout: Math.min(requestTimeoutMs, HEADERS_TIMEOUT_MS),
    connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
    // What Fastify would set on a server of its own (its default, 72 s).
    keepAliveTimeout:
      typeof fastifyOptions.keepAliveTimeout === 'number' ? fastifyOptions.keepAliveTimeout : 72_000,
    // Node would answer a missing Host with its own empty 400: `hostProblem` answers it instead.
    requireHostHeader: false,
  });
  const serve = (req: IncomingMessage, res: ServerResponse) => {
    const problem = hostProblem(req);
    if (problem) answerResponse(res, problem, log);
    else handler(req, res);
  };
  server.on('request', serve);
  // `100 Continue` only once the app reads the body: a request refused before (404, 401, 413)
  // is answered without inviting a body that would only be thrown away.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    req.once('resume', () => {
      if (!res.headersSent) res.writeContinue();
    });
    serve(req, res);
  });
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) =>
    answerResponse(res, expectationFailed(), log),
  );
  // This server is no proxy. Node hands the socket over with the parser already detached.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    const error = badRequest();
    const { id, text } = rawAnswer(error);
    log?.info({ reqId: id, status: error.status, method: 'CONNECT' }, 'client error');
    socket.on('error', () => socket.destroy());
    socket.resume();
    answerAndLinger(socket, text);
  });
  return server;
}

/**
 * Fastify options that keep every answer of the server in the contract's shape, including those
 * Node's HTTP layer gives, and bound how long a request may take to arrive.
 */
export function httpServerOptions(
  config: Pick<Config, 'requestTimeoutMs'>,
): Pick<FastifyHttpOptions<Server>, 'clientErrorHandler' | 'serverFactory' | 'requestTimeout'> {
  return {
    requestTimeout: config.requestTimeoutMs,
    clientErrorHandler,
    serverFactory: (handler, options) => createContractServer(handler, options, config.requestTimeoutMs),
  };
}
