import type { FastifyRequest } from 'fastify';

const reads = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The machines' API: its calls change machines' records, never a console session, user or role. */
const machinesApi = '/api/v1/app/';

/**
 * Whether a request may have changed what a console session may do (a sign-out, a password, a user,
 * a role, a step-up): any write outside the machines' API. Those are few beside the reads, so
 * dropping every held session after each costs little (decision 074).
 */
export const mayChangeSessions = (request: FastifyRequest) =>
  !reads.has(request.method) && !request.url.startsWith(machinesApi);
