import { and, eq, inArray } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import { deviceApiMessages, type BatchResult } from '@app/contract/device-api';
import type { Db } from '#api/db/client.ts';
import { nulMessage, nulPath } from '#api/lib/nul-guard.ts';

/*
 * The per-item engine of every batch route (docs/device-api.md): each item is parsed on its own, a
 * bad one (a NUL character included) is refused with a reason naming its field, and the rest go on. Services add their own
 * refusals (a patient that is not theirs, a role that is not an app role) to the same slots, store
 * what is left, and answer in the items' order. Idempotency is by the item's id: a copy of an id
 * within one batch is stored once and answered like the first; an id already stored is 'accepted'.
 */

/** A device clock may run this far ahead of ours before its times are refused. */
export const maxClockAheadMs = 5 * 60_000;
/** An app offline for a long time may send old items, but nothing older than this. */
export const maxItemAgeMs = 366 * 86_400_000;

export type Slot<T> = {
  /** The item's id as sent (echoed in the answer), null when it had none readable. */
  id: string | null;
  /** The id lower-cased: how it compares with what the database stores (uuid columns). */
  key: string | null;
  /** The parsed item; null when it was refused while parsing. */
  value: T | null;
  reason: string | null;
  /** A later copy of an id already in this batch: answered like that first one, never stored. */
  sameAs: Slot<T> | null;
};

/** "treatmentImages[1].data": the field path as the app's developer would write it. */
export const fieldPath = (path: readonly PropertyKey[]) =>
  path.reduce<string>(
    (out, part) =>
      typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part),
    '',
  );

const reasonOf = (issue: z.core.$ZodIssue) => {
  const where = fieldPath(issue.path);
  return where ? `${where}: ${issue.message}` : issue.message;
};

const readableId = (item: unknown): string | null => {
  if (!item || typeof item !== 'object') return null;
  const id = (item as { id?: unknown }).id;
  return typeof id === 'string' && id.length <= 64 ? id : null;
};

/** The device-time rule: not more than a few minutes ahead of the server, not older than a year. */
export function deviceTimeProblem(iso: string, now: Date): string | null {
  const t = Date.parse(iso);
  if (t > now.getTime() + maxClockAheadMs) return deviceApiMessages.deviceTimeInFuture;
  if (t < now.getTime() - maxItemAgeMs) return deviceApiMessages.deviceTimeTooOld;
  return null;
}

/**
 * Parses every item with the item schema, checks its device times, and pairs copies of an id.
 * `timeFields` name the item's ISO times (device clock) that the time rule applies to.
 */
export function parseBatch<S extends z.ZodType>(
  items: readonly unknown[],
  schema: S,
  opts: { now: Date; timeFields: readonly (keyof z.output<S> & string)[] },
): Slot<z.output<S>>[] {
  const firstByKey = new Map<string, Slot<z.output<S>>>();
  return items.map((item) => {
    const id = readableId(item);
    const slot: Slot<z.output<S>> = {
      id,
      key: id?.toLowerCase() ?? null,
      value: null,
      reason: null,
      sameAs: null,
    };
    if (!item || typeof item !== 'object' || Array.isArray(item)) {
      slot.reason = 'item must be an object';
      return slot;
    }
    // The request's NUL guard leaves batch items to this check (PostgreSQL text cannot hold one).
    const nulAt = nulPath(item);
    if (nulAt) {
      const where = fieldPath(nulAt);
      slot.reason = `${where}: ${nulMessage(where)}`;
      return slot;
    }
    const parsed = schema.safeParse(item);
    if (!parsed.success) {
      slot.reason = reasonOf(parsed.error.issues[0]!);
      return slot;
    }
    slot.value = parsed.data;
    for (const field of opts.timeFields) {
      const problem = deviceTimeProblem(parsed.data[field] as string, opts.now);
      if (problem) return refuse(slot, field, problem);
    }
    const first = firstByKey.get(slot.key!);
    if (first) slot.sameAs = first;
    else firstByKey.set(slot.key!, slot);
    return slot;
  });
}

export function refuse<T>(slot: Slot<T>, field: string, message: string): Slot<T> {
  slot.reason = `${field}: ${message}`;
  return slot;
}

/** Slots still to be checked or stored: parsed, not refused, and not a copy of an earlier id. */
export const pending = <T>(slots: readonly Slot<T>[]) =>
  slots.filter((s): s is Slot<T> & { value: T; key: string } => s.value !== null && !s.reason && !s.sameAs);

/** The answer, in the items' order; a copy of an id answers what its first occurrence answered. */
export function answer<T>(slots: readonly Slot<T>[]): BatchResult {
  const results = slots.map((slot) => {
    const reason = slot.sameAs ? slot.sameAs.reason : slot.reason;
    return reason
      ? { id: slot.id, status: 'refused' as const, reason }
      : { id: slot.id, status: 'accepted' as const };
  });
  const accepted = results.filter((r) => r.status === 'accepted').length;
  return { accepted, refused: results.length - accepted, results };
}

/** A table of the machine's records, keyed by the app's item id per machine. */
type ItemTable = PgTable & { deviceId: PgColumn; clientId: PgColumn };

/**
 * The live slots this machine has not stored yet. An id already stored is a retry: it stays
 * 'accepted' as before, and is not stored (nor its password hashed, its pictures decoded) again.
 */
export async function notStoredYet<S extends { key: string }>(
  db: Db,
  table: ItemTable,
  deviceId: string,
  live: S[],
): Promise<S[]> {
  const rows = await db
    .select({ clientId: table.clientId })
    .from(table)
    .where(
      and(
        eq(table.deviceId, deviceId),
        inArray(
          table.clientId,
          live.map((s) => s.key),
        ),
      ),
    );
  const stored = new Set(rows.map((r) => String(r.clientId).toLowerCase()));
  return live.filter((s) => !stored.has(s.key));
}

/** A unique violation (SQLSTATE 23505) on the named index, wherever the driver put it in the cause chain. */
export function isUniqueViolation(error: unknown, index: string): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, constraint, message } = e as { code?: unknown; constraint?: unknown; message?: unknown };
    if (code === '23505')
      return constraint === index || (typeof message === 'string' && message.includes(index));
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
