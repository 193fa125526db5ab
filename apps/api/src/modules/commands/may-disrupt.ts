import type { FastifyRequest } from 'fastify';
import { commandIsDisruptive, commandMessages, type CommandKind } from '@app/contract/commands';
import { ForbiddenError } from '#api/lib/errors.ts';
import { requireAuth } from '#api/lib/request-context.ts';

/**
 * A disruptive kind (restart, safety hold, re-enrol) needs commands.disruptive beside the route's own
 * commands.send, to one machine or to many (a route's `authorize`, before any step-up is asked).
 */
export function mayDisrupt(request: FastifyRequest, kind: CommandKind) {
  if (commandIsDisruptive(kind) && !requireAuth(request).permissions.includes('commands.disruptive'))
    throw new ForbiddenError(commandMessages.disruptiveNeedsPermission);
}
