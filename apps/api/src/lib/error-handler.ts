import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { apiMessages } from '@app/contract/envelope';
import { isDatabaseUnavailable } from './db-unavailable.ts';
import { AppError, TooManyRequestsError } from './errors.ts';
import { validationMessage } from './validation-message.ts';

/** Friendlier words for the framework's own 4xx answers. */
const frameworkMessages: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type: send application/json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body is empty: send a JSON object',
  FST_ERR_CTP_INVALID_JSON_BODY: 'Request body is not valid JSON',
};

/** One error handler: every failure becomes `{ code, msg, data }`; a 5xx never shows its details. */
export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => ({
        path: v.instancePath.slice(1).replace(/\//g, '.'),
        message: v.message ?? 'is invalid',
      }));
      return reply.code(400).send({ code: 400, msg: validationMessage(issues), data: { errors: issues } });
    }
    if (error instanceof AppError) {
      if (error instanceof TooManyRequestsError) reply.header('retry-after', String(error.retryAfterSeconds));
      return reply
        .code(error.statusCode)
        .send({ code: error.statusCode, msg: error.message, data: error.data });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      const msg = (error.code && frameworkMessages[error.code]) || error.message;
      return reply.code(error.statusCode).send({ code: error.statusCode, msg, data: null });
    }
    // The database is down or restarting: not a bug, and the same request will work again soon.
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .code(503)
        .header('retry-after', '5')
        .send({ code: 503, msg: apiMessages.unavailable, data: null });
    }
    const id = randomUUID();
    request.log.error({ err: error, errorId: id }, 'unhandled error');
    return reply.code(500).send({ code: 500, msg: `${apiMessages.internal} (error id ${id})`, data: null });
  });
}
