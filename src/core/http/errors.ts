import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/errors.js';
import {
  AppError,
  badRequest,
  type ErrorCode,
  internalError,
  invalidCsrfToken,
  malformedJson,
  payloadTooLarge,
  serviceUnavailable,
  unsupportedMediaType,
  validationFailed,
} from '../errors.js';
import { fieldErrorsFromAjv } from './validation.js';

// Client errors raised by Fastify or a plugin (@fastify/static's 412 and 416, for instance)
// that the switch below does not name; any other 4xx is a plain 400 Bad request.
const GENERIC_4XX: Record<number, ErrorCode> = {
  400: 'bad_request',
  404: 'not_found',
  408: 'request_timeout',
  412: 'precondition_failed',
  413: 'payload_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  416: 'range_not_satisfiable',
  431: 'header_fields_too_large',
};

/** Maps anything thrown while handling a request onto the error catalogue. */
export function toAppError(err: unknown, request: FastifyRequest): AppError {
  if (err instanceof AppError) return err;
  const e = err as FastifyError & { validationContext?: string };
  if (e?.validation) {
    // No body at all is "not valid JSON", whatever the schema would have said.
    if (e.validationContext === 'body' && request.body === undefined) return malformedJson();
    return validationFailed(fieldErrorsFromAjv(e.validation as never, e.validationContext));
  }
  switch (e?.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return unsupportedMediaType();
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return payloadTooLarge();
    case 'FST_CSRF_MISSING_SECRET':
    case 'FST_CSRF_INVALID_TOKEN':
      return invalidCsrfToken();
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return malformedJson();
  }
  if (e instanceof SyntaxError && e.statusCode === 400) return malformedJson();
  if (isDatabaseUnavailable(err)) return serviceUnavailable();
  const status = e?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code = GENERIC_4XX[status];
    return code ? new AppError(code) : badRequest();
  }
  return internalError();
}

export interface ErrorBody {
  error: string;
  status: number;
  code?: ErrorCode;
  details?: unknown;
  request_id?: string;
}

/**
 * The contract's error body `{error, status, details?}`, plus the error's `code` and the
 * request's id (the `X-Request-Id` header's value), except where the contract states the body
 * exactly (see `exactBody` in the catalogue).
 */
export function errorBody(error: AppError, requestId: string): ErrorBody {
  const body: ErrorBody = { error: error.message, status: error.status };
  if (!error.exactBody) body.code = error.code;
  if (error.details) body.details = error.details;
  if (!error.exactBody) body.request_id = requestId;
  return body;
}

export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  if (error.headers) reply.headers(error.headers);
  return reply
    .status(error.status)
    .type('application/json; charset=utf-8')
    .send(errorBody(error, reply.request.id));
}

/** One handler renders every error in the contract's shape and hides everything internal. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err, request, reply) => {
    const error = toAppError(err, request);
    if (error.status >= 500) {
      const level = error.status === 503 ? 'warn' : 'error';
      request.log[level]({ err }, error.message);
    }
    return sendError(reply, error);
  });
}
