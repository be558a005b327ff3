import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onSendHookHandler,
  preHandlerHookHandler,
} from 'fastify';
import { validationFailed } from '../../../core/errors.js';
import {
  finishIdempotentRequest,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_METHODS,
  idempotencyKeyProblem,
  REPLAYED_HEADERS,
  requestFingerprint,
  startIdempotentRequest,
} from './idempotency.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The idempotency row this request runs under (an `Idempotency-Key` was sent). */
    idempotencyId?: number;
  }
}

const asList = <T>(hooks: T | T[] | undefined): T[] => (hooks === undefined ? [] : ([hooks].flat() as T[]));

/**
 * Registers `Idempotency-Key` in the Customer API's scope, after authentication, as hooks of
 * the POST, PATCH and DELETE routes only (reads never run them): before the handler (the body
 * parsed and valid), the key is claimed or the first response replayed (`Idempotent-Replayed:
 * true`); when the response is sent, it is kept for replays.
 */
export function registerIdempotency(api: FastifyInstance): void {
  const claim = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!IDEMPOTENT_METHODS.includes(request.method) || !request.auth) return;
    const header = request.headers[IDEMPOTENCY_KEY_HEADER];
    if (header === undefined) return;
    const key = Array.isArray(header) ? header.join(',') : header;
    const problem = idempotencyKeyProblem(key);
    if (problem !== null) throw validationFailed({ 'Idempotency-Key': [problem] });
    const start = await startIdempotentRequest(api.db, request.auth.accountId, request.auth.keyId, {
      key,
      fingerprint: requestFingerprint(request.method, request.url, request.body),
    });
    if (start.run) {
      request.idempotencyId = start.id;
      return;
    }
    const { status, headers, body } = start.replay;
    return reply.code(status).headers(headers).header('idempotent-replayed', 'true').send(body);
  };

  const keep = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const id = request.idempotencyId;
    if (id === undefined || !request.auth) return payload;
    request.idempotencyId = undefined;
    // A 204 has no payload at all: an empty body is a response like any other, kept for replays.
    // Only a stream (which cannot be read twice) is not kept.
    const body =
      payload === undefined || payload === null
        ? ''
        : typeof payload === 'string'
          ? payload
          : Buffer.isBuffer(payload)
            ? payload.toString('utf8')
            : null;
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    await finishIdempotentRequest(
      api.db,
      request.auth.accountId,
      id,
      body === null ? null : { status: reply.statusCode, headers, body },
    );
    return payload;
  };

  api.addHook('onRoute', (route) => {
    if (![route.method].flat().some((m) => IDEMPOTENT_METHODS.includes(m))) return;
    route.preHandler = [...asList(route.preHandler), claim as preHandlerHookHandler];
    route.onSend = [...asList(route.onSend), keep as onSendHookHandler];
  });
}
