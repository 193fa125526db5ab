import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { maskAddress, maskEmail, maskPhone } from '@app/contract/masking';
import {
  historyMaskedFields,
  type HistoryEntry,
  type HistoryKind,
  type RecordHistory,
} from '@app/contract/record-history';
import type { Db } from '#api/db/client.ts';
import { recordHistory } from '#api/db/schema/record-history.ts';
import { roles } from '#api/db/schema/users.ts';
import { offsetOf, pageCount } from '#api/lib/pagination.ts';

/*
 * The values are read as JSON text and parsed here: through a jsonb column a stored string that
 * reads as JSON ("5551234567", "true") would be parsed a second time into a number or a boolean.
 */
const jsonText = (column: AnyPgColumn): SQL<string | null> => sql`${column}::text`;
const columns = {
  id: recordHistory.id,
  changedAt: recordHistory.changedAt,
  field: recordHistory.field,
  oldJson: jsonText(recordHistory.oldValue),
  newJson: jsonText(recordHistory.newValue),
  secret: recordHistory.secret,
  actorId: recordHistory.actorId,
  actorEmail: recordHistory.actorEmail,
  sessionId: recordHistory.sessionId,
  requestId: recordHistory.requestId,
  reason: recordHistory.reason,
};
type Stored = {
  [K in Exclude<keyof typeof columns, 'oldJson' | 'newJson'>]: (typeof recordHistory.$inferSelect)[K];
} & { oldJson: string | null; newJson: string | null };
type Row = Stored & { oldValue: unknown; newValue: unknown };
const parsed = (row: Stored): Row => ({
  ...row,
  oldValue: row.oldJson === null ? null : JSON.parse(row.oldJson),
  newValue: row.newJson === null ? null : JSON.parse(row.newJson),
});

/** A masked field's value as the record's own page masks it (decision 045). */
function maskValue(field: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (field === 'email') return maskEmail(value);
  if (field === 'address') return maskAddress(value);
  return maskPhone(value);
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A record's change history (decision 081), newest first, a page at a time, through the history's
 * record index; each change's fields in the order the record declares them. Masked fields come
 * masked unless `revealed` (the caller checked the permission and wrote the REVEAL row). A user's
 * role is named as it is called now, one query for the page.
 */
export function createRecordHistoryService({ db }: { db: Db }) {
  async function roleNames(rows: Row[]): Promise<Map<string, string>> {
    const ids = new Set<string>();
    for (const row of rows)
      if (row.field === 'roleId')
        for (const value of [row.oldValue, row.newValue])
          if (typeof value === 'string' && uuid.test(value)) ids.add(value);
    if (!ids.size) return new Map();
    const found = await db
      .select({ id: roles.id, name: roles.roleName })
      .from(roles)
      .where(inArray(roles.id, [...ids]));
    return new Map(found.map((r) => [r.id, r.name]));
  }

  return async function read(
    kind: HistoryKind,
    id: string,
    { page, limit }: { page: number; limit: number },
    { revealed = false }: { revealed?: boolean } = {},
  ): Promise<RecordHistory> {
    const where = and(eq(recordHistory.recordKind, kind), eq(recordHistory.recordId, id));
    const [stored, [counted]] = await Promise.all([
      db
        .select(columns)
        .from(recordHistory)
        .where(where)
        .orderBy(desc(recordHistory.changedAt), desc(recordHistory.id))
        .limit(limit)
        .offset(offsetOf(page, limit)),
      db.select({ n: count() }).from(recordHistory).where(where),
    ]);
    const rows = stored.map(parsed);
    const names = kind === 'user' ? await roleNames(rows) : new Map<string, string>();
    const masked = new Set(revealed ? [] : (historyMaskedFields[kind] ?? []));
    const total = counted?.n ?? 0;
    return {
      history: rows.map((row) => toEntry(row, masked.has(row.field), names)),
      totalPages: pageCount(total, limit),
      total,
      page,
      limit,
    };
  };
}
export type RecordHistoryService = ReturnType<typeof createRecordHistoryService>;

function toEntry(row: Row, masked: boolean, names: Map<string, string>): HistoryEntry {
  const value = (v: unknown) => (masked ? maskValue(row.field, v) : v);
  const label = (v: unknown) => (typeof v === 'string' ? (names.get(v) ?? null) : null);
  return {
    _id: String(row.id),
    at: row.changedAt.toISOString(),
    field: row.field,
    oldValue: value(row.oldValue),
    newValue: value(row.newValue),
    oldLabel: label(row.oldValue),
    newLabel: label(row.newValue),
    secret: row.secret,
    masked,
    actor: row.actorId ? { userId: row.actorId, email: row.actorEmail } : null,
    sessionId: row.sessionId,
    requestId: row.requestId,
    reason: row.reason,
  };
}
