/** Recognises driver errors by meaning, for both dialects. */

interface DriverError {
  code?: string;
  message?: string;
}

export function isUniqueViolation(err: unknown): boolean {
  const code = (err as DriverError)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000',
  '08001',
  '08003',
  '08006',
  '53300', // too_many_connections
  '57014', // query_canceled: statement_timeout
  '55P03', // lock_not_available
  '25P03', // idle_in_transaction_session_timeout
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_CANTOPEN',
  'SQLITE_IOERR',
  'SQLITE_FULL',
]);

/** True when the database could not be reached or used right now (→ 503, retry later). */
export function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as DriverError;
  if (!e) return false;
  if (e.code && (UNAVAILABLE_CODES.has(e.code) || e.code.startsWith('SQLITE_IOERR'))) return true;
  const message = e.message ?? '';
  return /Connection terminated|Query read timeout|timeout exceeded when trying to connect|Client was closed and is not queryable|database is busy|Client has encountered a connection error|connect ECONNREFUSED|driver has already been destroyed/i.test(
    message,
  );
}
