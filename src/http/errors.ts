import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/errors.js';
import {
  AppError,
  internalError,
  invalidCsrfToken,
  malformedJson,
  payloadTooLarge,
  serviceUnavailable,
  unsupportedMediaType,
  validationFailed,
} from '../errors.js';
import { fieldErrorsFromAjv } from './validation.js';

const GENERIC_4XX: Record<number, string> = {
  400: 'Bad request',
  404: 'Not found',
  408: 'Request timeout',
  413: 'Payload too large',
  414: 'URI too long',
  415: 'Unsupported media type',
  431: 'Request header fields too large',
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
    return new AppError(status, GENERIC_4XX[status] ?? 'Bad request');
  }
  return internalError();
}

/** The contract's error body: `{error, status, details?}`. */
export function errorBody(error: AppError): { error: string; status: number; details?: unknown } {
  const body: { error: string; status: number; details?: unknown } = {
    error: error.message,
    status: error.status,
  };
  if (error.details) body.details = error.details;
  return body;
}

export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  if (error.headers) reply.headers(error.headers);
  return reply.status(error.status).type('application/json; charset=utf-8').send(errorBody(error));
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
