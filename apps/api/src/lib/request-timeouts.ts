import type { FastifyInstance } from 'fastify';

/*
 * Timeouts (issue 18, item 6; decision 027). Node's own limits are per server, so:
 * - every request must arrive whole (headers and body) within `requestMs` (30 s by default): a
 *   timer from the first byte to the parsed body answers 408 and closes the connection;
 * - a multipart upload (an APK of 200 MB on a slow link) is read by its handler, after the sign-in
 *   check, so it is exempt from that timer and bounded by `uploadMs` instead (Node's requestTimeout,
 *   1 hour by default) and by the idle timeout (no byte for `idleMs` closes the socket);
 * - headers must arrive within `headersMs`; an idle keep-alive connection closes after `keepAliveMs`.
 */
export type Timeouts = {
  requestMs: number;
  uploadMs: number;
  idleMs: number;
  headersMs: number;
  keepAliveMs: number;
};

/** Fastify's server options for these timeouts (buildApp passes them to Fastify()). */
export const fastifyTimeoutOptions = (t: Timeouts) => ({
  requestTimeout: t.uploadMs,
  connectionTimeout: t.idleMs,
  keepAliveTimeout: t.keepAliveMs,
});

declare module 'fastify' {
  interface FastifyRequest {
    bodyTimer?: NodeJS.Timeout;
  }
}

/** A body follows the headers: a non-zero Content-Length, or a chunked one of unknown length. */
const hasBody = (headers: { 'content-length'?: string; 'transfer-encoding'?: string }) =>
  headers['transfer-encoding'] !== undefined ||
  (headers['content-length'] !== undefined && headers['content-length'] !== '0');

export function installRequestTimeouts(app: FastifyInstance, t: Timeouts) {
  // Node checks headersTimeout against requestTimeout; Fastify has no option for it.
  app.server.headersTimeout = Math.min(t.headersMs, t.uploadMs);

  // Callback-style hooks here and in the other per-request hooks: no promise and no microtask hop
  // per hook on every request (decision 040).
  app.addHook('onRequest', (request, reply, done) => {
    // Nothing left to arrive once the headers are in (headersTimeout covered them): no timer for a
    // request without a body, most of all the reads and the machines' heartbeats on the hot path.
    if (!hasBody(request.headers)) return done();
    if (request.headers['content-type']?.toLowerCase().startsWith('multipart/')) return done();
    const timer = setTimeout(() => {
      if (reply.sent) return;
      request.log.warn({ timeoutMs: t.requestMs }, 'request body too slow; answered 408');
      // The body never finished: this connection cannot carry another request.
      reply.raw.once('finish', () => request.raw.socket?.destroy());
      void reply
        .code(408)
        .header('connection', 'close')
        .send({ code: 408, msg: 'The request took too long to arrive', data: null });
    }, t.requestMs);
    timer.unref();
    request.bodyTimer = timer;
    done();
  });
  const stop = (request: { bodyTimer?: NodeJS.Timeout }, _reply: unknown, done: () => void) => {
    if (request.bodyTimer) clearTimeout(request.bodyTimer);
    done();
  };
  // The body is parsed before validation: from here on the handler's time is its own.
  app.addHook('preValidation', stop);
  app.addHook('onResponse', stop);
  app.addHook('onRequestAbort', (request, done) => {
    if (request.bodyTimer) clearTimeout(request.bodyTimer);
    done();
  });
}
