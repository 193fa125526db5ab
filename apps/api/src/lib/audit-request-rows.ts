import type { FastifyReply, FastifyRequest } from 'fastify';
import { limiterAddress } from './anonymous-rate-limit.ts';
import { clientAddress, type AuditLog } from './audit.ts';
import { rowRecordOf } from './audit-records.ts';
import { accessDenied, claimedEmail, logSecurityEvent, securityEventOf } from './security-events.ts';

/* What one API request leaves in the audit trail: its access row and its error row. */

const apiPrefix = /^\/api\/(v\d+\/admin\/)?/;

/** GET /api/v1/admin/users/:id → getUsersById; the handler's own name when it has one. */
export function handlerName(
  method: string,
  routeUrl: string | undefined,
  handler?: { readonly name: string },
): string {
  // Fastify binds handlers to the instance: 'bound updateUser'.
  const own = handler?.name.replace(/^(bound )+/, '');
  if (own && own !== 'anonymous') return own;
  if (!routeUrl) return 'notFound';
  const parts = routeUrl
    .replace(apiPrefix, '')
    .split('/')
    .filter(Boolean)
    .map((seg) =>
      seg.startsWith(':')
        ? `By${cap(seg.slice(1))}`
        : seg
            .split(/[^A-Za-z0-9]+/)
            .map(cap)
            .join(''),
    );
  return method.toLowerCase() + parts.join('');
}
const cap = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

/** The path without its query, long opaque segments (tokens, ids) replaced: for unmatched routes only. */
function safePath(url: string): string {
  const path = url.split('?')[0]!.slice(0, 200);
  return path
    .split('/')
    .map((seg) => (seg.length >= 20 && /^[A-Za-z0-9._~%-]+$/.test(seg) ? ':redacted' : seg))
    .join('/');
}

/**
 * The machine a row is about: the machine's own call, or a console action on one machine
 * (enrolment), named by its handler. A console list filtered by `?machineNumber=` is a read by the
 * admin, not something the machine did: taking the filter as the machine put every opening of
 * Device Details (six list reads) into that machine's own Logs tab, between the rows its app sent.
 */
function machineNumberOf(request: FastifyRequest): string | null {
  return request.auditMachineNumber ?? request.device?.machineNumber ?? null;
}

/** The request's rows: an access row when someone is signed in (or for a security event), an error row when it failed. */
export function recordRequest(audit: AuditLog, request: FastifyRequest, reply: FastifyReply) {
  try {
    const route = request.routeOptions.url;
    const resource = `${request.method} ${route ?? safePath(request.url)}`;
    const auth = request.auth;
    const machineNumber = machineNumberOf(request);
    // The customer the row is about (decision 087): a write about one names it, a clinic user's
    // every request is their clinic's (decision 088).
    const customerId = request.auditCustomerId ?? auth?.customerId ?? null;
    // Refused by the anonymous limiter before any work: not a sign-in (or other) attempt.
    const event = request.anonymousRateLimited ? null : securityEventOf(request, reply.statusCode);
    const background = request.routeOptions.config.backgroundRead === true && reply.statusCode < 400;
    if ((auth && !background) || (event && event !== accessDenied)) {
      // An anonymous security event (a sign-in, a password reset) is kept under the email given.
      audit.access({
        userId: auth?.userId ?? request.securitySubject?.userId ?? null,
        userEmail: auth ? auth.email : (request.securitySubject?.email ?? claimedEmail(request)),
        resource,
        location: clientAddress(request),
        statusCode: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime),
        machineNumber,
        event,
        customerId,
        ...rowRecordOf(request, reply.statusCode),
      });
    }
    // The step-up prompt is the console asking for the password, not an error (issue 35 item 10).
    if (reply.statusCode >= 400 && !request.stepUpAsked) {
      const entry = {
        userId: auth?.userId ?? null,
        userEmail: auth?.email ?? null,
        resource,
        functionName:
          request.routeOptions.config.functionName ??
          handlerName(request.method, route, request.routeOptions.handler),
        statusCode: reply.statusCode,
        message: request.auditMessage ?? null,
        location: clientAddress(request),
        machineNumber,
        event,
        customerId,
      };
      // Anonymous failures other than security events (a sign-in, a password reset: each one is
      // kept) are aggregated per address, so a flood cannot fill the append-only table.
      const anonymous = !auth && !request.device && !request.appUser;
      if (anonymous && (event === null || event === accessDenied))
        audit.anonymousError(limiterAddress(request), entry);
      else audit.error(entry);
    }
    if (event) logSecurityEvent(request, event, reply.statusCode);
  } catch (err) {
    request.log.error({ err }, 'audit: could not record the request');
  }
}
