import { historyFieldOf, type HistoryValueFormat } from '@app/contract/record-history-fields';
import { recordHistoryMessages, type HistoryEntry, type HistoryKind } from '@app/contract/record-history';
import { formatDateTime } from '../lib/format.ts';

/*
 * A history value in words (decision 081): a status by its name, a date-time in the admin's zone as
 * every date-time of the console, dollars from cents, Yes or No, a list or an object spelled out.
 */

function plain(value: unknown): string {
  if (value === null || value === undefined || value === '') return recordHistoryMessages.none;
  if (Array.isArray(value)) return value.length ? value.map(plain).join(', ') : recordHistoryMessages.none;
  if (typeof value === 'object')
    return Object.entries(value as Record<string, unknown>)
      .map(([key, inner]) => `${key}: ${plain(inner)}`)
      .join(', ');
  return String(value);
}

export function valueText(value: unknown, format: HistoryValueFormat = 'text'): string {
  if (value === null || value === undefined) return recordHistoryMessages.none;
  if (format === 'date-time' && typeof value === 'string') return formatDateTime(value);
  if (format === 'yes-no' && typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (format === 'cents' && typeof value === 'number') return `$${(value / 100).toFixed(2)}`;
  if (typeof format === 'object') return format.labels[String(value)] ?? plain(value);
  return plain(value);
}

/** One side of a change: a name the API gave the id, else the value in words. */
export const sideText = (kind: HistoryKind, entry: HistoryEntry, side: 'old' | 'new'): string => {
  const label = side === 'old' ? entry.oldLabel : entry.newLabel;
  if (label) return label;
  return valueText(
    side === 'old' ? entry.oldValue : entry.newValue,
    historyFieldOf(kind, entry.field).format,
  );
};

/** Two lists (a role's permissions): what the change added and what it took away. */
export function listChange(entry: HistoryEntry): { added: string[]; removed: string[] } | null {
  const { oldValue, newValue } = entry;
  const isList = (v: unknown) => v === null || Array.isArray(v);
  if (!isList(oldValue) || !isList(newValue) || (oldValue === null && newValue === null)) return null;
  const before = ((oldValue as unknown[] | null) ?? []).map(plain);
  const after = ((newValue as unknown[] | null) ?? []).map(plain);
  return {
    added: after.filter((v) => !before.includes(v)),
    removed: before.filter((v) => !after.includes(v)),
  };
}
