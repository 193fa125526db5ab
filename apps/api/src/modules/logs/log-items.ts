import type { AccessLog, ErrorLog } from '@app/contract/logs';
import type { accessLogs, errorLogs } from '#api/db/schema/logs.ts';

const iso = (d: Date) => d.toISOString();
const logUser = (userId: string | null, email: string | null) => (userId ? { userId, email } : null);

/** An access row as the Admin Logs list shows it. */
export const toAccessLog = (r: Omit<typeof accessLogs.$inferSelect, 'listedIds'>): AccessLog => ({
  _id: String(r.id),
  resource: r.resource,
  location: r.location,
  time: iso(r.createdAt),
  createdTime: iso(r.createdAt),
  userEmail: r.userEmail,
  user: logUser(r.userId, r.userEmail),
  machineNumber: r.machineNumber,
  statusCode: r.statusCode,
  recordKind: r.recordKind,
  recordId: r.recordId,
  changedFields: r.changedFields,
});

/** An error row as the Admin Logs list shows it. */
export const toErrorLog = (r: typeof errorLogs.$inferSelect): ErrorLog => ({
  _id: String(r.id),
  resource: r.resource,
  functionName: r.functionName,
  utcTime: iso(r.createdAt),
  createdTime: iso(r.createdAt),
  userEmail: r.userEmail,
  user: logUser(r.userId, r.userEmail),
  machineNumber: r.machineNumber,
  statusCode: r.statusCode,
  message: r.message,
  location: r.location,
});
