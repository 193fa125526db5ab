import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Fastify answers a malformed URL (bad percent-encoding, a path parameter over maxParamLength)
 * before any route or error handler runs, in its own `{ error, message, statusCode }` shape, and
 * echoes the whole URL back. Passed as the `frameworkErrors` option, this gives those answers our
 * `{ code, msg, data }` envelope and a short message instead.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const status =
    error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  const msg =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'A part of the address is too long'
      : 'The address is malformed';
  void reply.code(status).send({ code: status, msg, data: null });
}
