import { and, count, desc, eq, or, sql } from 'drizzle-orm';
import type { AccessHistory, AccessHistoryEntry } from '@app/contract/masking';
import type { Db } from '#api/db/client.ts';
import { accessLogs } from '#api/db/schema/logs.ts';
import { offsetOf, pageCount } from '#api/lib/pagination.ts';

/**
 * Who looked at one patient's or doctor's record, who revealed its contact data, and which list
 * reads returned it, newest first (HIPAA's accounting of disclosures): the audit trail's record rows
 * (`audit.recordView`) through its record index, and its list rows through the GIN index on the ids
 * they returned (decision 048). The id is a UUID: the route's params schema checked it.
 */
export function createRecordAccessHistory({ db }: { db: Db }) {
  return async function accessHistory(
    kind: 'patient' | 'doctor',
    id: string,
    { page, limit }: { page: number; limit: number },
  ): Promise<AccessHistory> {
    const where = and(
      eq(accessLogs.recordKind, kind),
      or(eq(accessLogs.recordId, id), sql`${accessLogs.listedIds} @> array[${id}]::uuid[]`),
    );
    const [rows, [counted]] = await Promise.all([
      db
        .select({
          id: accessLogs.id,
          createdAt: accessLogs.createdAt,
          userEmail: accessLogs.userEmail,
          location: accessLogs.location,
          resource: accessLogs.resource,
          listed: sql<boolean>`${accessLogs.listedIds} is not null`,
        })
        .from(accessLogs)
        .where(where)
        .orderBy(desc(accessLogs.createdAt), desc(accessLogs.id))
        .limit(limit)
        .offset(offsetOf(page, limit)),
      db.select({ n: count() }).from(accessLogs).where(where),
    ]);
    const total = counted?.n ?? 0;
    return {
      history: rows.map(toEntry),
      totalPages: pageCount(total, limit),
      total,
      page,
      limit,
    };
  };
}
export type RecordAccessHistory = ReturnType<typeof createRecordAccessHistory>;

function toEntry(row: {
  id: number;
  createdAt: Date;
  userEmail: string | null;
  location: string | null;
  resource: string;
  listed: boolean;
}): AccessHistoryEntry {
  const revealed = row.resource.startsWith('REVEAL ');
  const colon = row.resource.indexOf(': ');
  return {
    _id: String(row.id),
    at: row.createdAt.toISOString(),
    userEmail: row.userEmail,
    location: row.location,
    action: revealed ? 'Revealed' : row.listed ? 'Listed' : 'Viewed',
    detail: revealed && colon > 0 ? row.resource.slice(colon + 2) : null,
  };
}
