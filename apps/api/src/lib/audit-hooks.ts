import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditLog } from './audit.ts';
import { installAuditRecords } from './audit-records.ts';
import { recordRequest } from './audit-request-rows.ts';
import { routeConfigOf } from './route-config.ts';

/** Methods that only read: their rows may wait for the next batch. */
const readOnlyMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A write (any method that may change data) and a read of one patient's, doctor's or treatment's
 * record are in the audit trail before the client hears back: a crash right after the answer
 * must not leave a change, or a look at a record, without its row. Other reads go in the next batch.
 */
const mustLandFirst = (request: FastifyRequest) =>
  !readOnlyMethods.has(request.method) || request.auditRecordViewed === true;

/**
 * A machine's successful calls (heartbeats, batches of records, thousands a second across a fleet)
 * write no API row: they would bury the Admin Logs and slow ingestion; the app sends its own logs.
 * Their failures still land in error_logs, and a security event (enrolment, sign-in) is still kept.
 */
export const quietDeviceSuccess = (request: Pick<FastifyRequest, 'routeOptions'>, statusCode: number) => {
  const { access, securityEvent } = routeConfigOf(request);
  return statusCode < 400 && (access === 'device' || access === 'app-user') && !securityEvent;
};

/** Every authenticated API request → an access row; every failed API request → an error row. */
export function installAuditHooks(app: FastifyInstance, audit: AuditLog) {
  app.decorate('audit', audit);
  // Before any route registers: each route's plan of what its row names (decision 048).
  installAuditRecords(app);
  // Callback style: only a write waits (for its rows), and no read pays for a promise.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode >= 400 && typeof payload === 'string' && payload.length < 10_000) {
      try {
        const msg = (JSON.parse(payload) as { msg?: unknown }).msg;
        if (typeof msg === 'string') request.auditMessage = msg.slice(0, 500);
      } catch {
        // Not JSON: nothing to keep.
      }
    }
    // Nothing to write for it, here or in onResponse.
    if (quietDeviceSuccess(request, reply.statusCode)) request.auditRecorded = true;
    else if (request.url.startsWith('/api/') && mustLandFirst(request)) {
      request.auditRecorded = true;
      recordRequest(audit, request, reply);
      // A database that cannot be written keeps the rows in memory (write() never throws).
      audit.flush().then(() => done(null, payload), done);
      return;
    }
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (request.url.startsWith('/api/') && !request.auditRecorded) recordRequest(audit, request, reply);
    done();
  });
  app.addHook('onClose', async () => {
    await audit.close();
  });
}
