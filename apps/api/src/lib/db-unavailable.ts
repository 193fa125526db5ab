/*
 * Tells "the database cannot be reached right now" apart from every other failure, so the error
 * handler can answer 503 (try again shortly) instead of 500 (a bug). node-postgres reports a lost
 * or refused connection as a socket error, a server shutdown as SQLSTATE 57P0x, and Drizzle wraps
 * either in a DrizzleQueryError whose `cause` holds the original; so the whole cause chain is read.
 */

/** Socket-level codes Node gives when the server is down, restarting or unreachable. */
const socketCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
]);

/**
 * SQLSTATEs meaning "not now" rather than "wrong query": class 08 (connection exception), 57P01-03
 * (admin/crash shutdown, cannot connect now: the server is starting or stopping), 53300 (too many
 * connections).
 */
const isUnavailableSqlState = (code: string) =>
  /^08[0-9A-Z]{3}$/.test(code) ||
  code === '57P01' ||
  code === '57P02' ||
  code === '57P03' ||
  code === '53300';

/** node-postgres's own messages for a pool or client that lost its server (they carry no code). */
const driverMessages = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Connection terminated due to connection timeout',
];

export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length) {
    const e = queue.shift();
    if (!e || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    const { code, message, cause, errors } = e as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    if (typeof code === 'string' && (socketCodes.has(code) || isUnavailableSqlState(code))) return true;
    if (typeof message === 'string' && driverMessages.some((m) => message.includes(m))) return true;
    queue.push(cause);
    // Node reports a refused connection to a host with several addresses as an AggregateError.
    if (Array.isArray(errors)) queue.push(...(errors as unknown[]));
  }
  return false;
}
