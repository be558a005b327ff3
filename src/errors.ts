/**
 * The error catalogue. Services throw these; one handler renders them as the contract's
 * `{error, status, details?}`. Anything that is not an AppError becomes a bare 500.
 */
export type ErrorDetails = Record<string, unknown>;

export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: ErrorDetails,
    /** Extra response headers (Allow, Retry-After). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** Field name → list of messages, as in `details` of a 400 Validation failed. */
export type FieldErrors = Record<string, string[]>;

export const apiKeyRequired = () => new AppError(401, 'API key required');
export const invalidApiKey = () => new AppError(401, 'Invalid API key');
/** `GET /metrics` without `Authorization: Bearer <METRICS_TOKEN>`, or with another token. */
export const metricsTokenRequired = () =>
  new AppError(401, 'Metrics token required', undefined, { 'WWW-Authenticate': 'Bearer realm="metrics"' });
export const invalidMetricsToken = () =>
  new AppError(401, 'Invalid metrics token', undefined, { 'WWW-Authenticate': 'Bearer realm="metrics"' });
export const forbidden = (message: string) => new AppError(403, message);
export const signInRequired = () => new AppError(401, 'Sign-in required');
export const invalidCredentials = () => new AppError(401, 'Invalid email or password');
export const invalidLink = () => new AppError(404, 'This link is not valid or has expired');
export const tooManySignIns = (retryAfterSeconds: number) =>
  new AppError(429, 'Too many sign-in attempts', undefined, { 'Retry-After': String(retryAfterSeconds) });
export const invalidCsrfToken = () => new AppError(403, 'Invalid CSRF token');
export const operatorRequired = () => new AppError(403, 'Operator access required');
export const badRequest = (message = 'Bad request') => new AppError(400, message);
export const malformedJson = () => new AppError(400, 'Malformed JSON body');
export const validationFailed = (fields: FieldErrors) => new AppError(400, 'Validation failed', fields);
export const invalidEmployeeIds = (invalidIds: number[]) =>
  new AppError(400, 'Invalid employee_ids', { invalid_ids: invalidIds });
export const notFound = (message = 'Not found') => new AppError(404, message);
export const invalidPage = () => new AppError(404, 'Invalid page');
export const methodNotAllowed = (allow: string[]) =>
  new AppError(405, 'Method not allowed', undefined, { Allow: allow.join(', ') });
export const requestTimeout = () => new AppError(408, 'Request timeout');
export const conflict = (message: string) => new AppError(409, message);
export const preconditionFailed = () => new AppError(412, 'Precondition failed');
export const payloadTooLarge = () => new AppError(413, 'Payload too large');
export const unsupportedMediaType = () => new AppError(415, 'Unsupported media type');
export const expectationFailed = () => new AppError(417, 'Expectation failed');
export const headerFieldsTooLarge = () => new AppError(431, 'Request header fields too large');
export const rateLimited = (retryAfterSeconds: number) =>
  new AppError(429, 'Rate limit exceeded', undefined, { 'Retry-After': String(retryAfterSeconds) });
export const serviceUnavailable = () => new AppError(503, 'Service unavailable');
export const internalError = () => new AppError(500, 'Internal server error');

/** Collects field errors and throws one Validation failed for all of them. */
export class FieldErrorCollector {
  readonly fields: FieldErrors = {};
  add(field: string, message: string): void {
    const list = this.fields[field] ?? [];
    this.fields[field] = list;
    if (!list.includes(message)) list.push(message);
  }
  throwIfAny(): void {
    if (Object.keys(this.fields).length > 0) throw validationFailed(this.fields);
  }
}
