/*
 * Errors as the server log shows them (issue 18, decision 026). A database error carries the
 * statement's bound values: in drizzle's message ("Failed query: ... params: a@b.c,Luca Neri"), in
 * its `params`, and in PostgreSQL's `detail` ("Key (email)=(a@b.c) already exists") and some messages
 * ('invalid input syntax for type uuid: "..."'). Those values are emails, search terms, mail bodies
 * with codes. The log keeps the type, the message without them, the codes and the stack frames.
 */

/** The message without bound values: drizzle's params part, and a quoted value PostgreSQL ends it with. */
export function loggableMessage(message: string): string {
  return message
    .replace(/\n?params:[\s\S]*$/, '')
    .replace(/: "[\s\S]*"$/, ': [redacted]')
    .slice(0, 2000);
}

// `errorCode`, not `code`: the log redacts every field named code (one-time codes; app.ts).
type Serialized = {
  type: string;
  message: string;
  errorCode?: string | number;
  stack?: string;
  cause?: Serialized;
};

/** pino's `err` serializer: also given plain strings (some callers log `err: error.message`). */
export function loggableError(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return loggableMessage(value);
  if (!(value instanceof Error)) return value;
  const type = value.constructor?.name || 'Error';
  const message = loggableMessage(value.message);
  const out: Serialized = { type, message };
  const code = (value as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') out.errorCode = code;
  const frames = (value.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  if (frames.length) out.stack = [`${type}: ${message}`, ...frames].join('\n');
  if (value.cause !== undefined && depth < 3) out.cause = loggableError(value.cause, depth + 1) as Serialized;
  return out;
}
