import { createHash } from 'node:crypto';

/*
 * What a signature's content hash is taken of (decision 083): the same value always gives the same
 * text, whatever order its keys were built in, so anyone holding the record can hash it again and
 * compare. Keys sorted at every depth, no whitespace, dates as ISO text, undefined properties left
 * out (as JSON.stringify does), and arrays kept in their order (an order that matters is content).
 */
export function canonicalJson(value: unknown): string {
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) throw new Error('a signed number must be finite');
  if (typeof value === 'bigint') return value.toString();
  return JSON.stringify(value ?? null);
}

/** Hex SHA-256 of the content's canonical JSON: what the signature row keeps. */
export const contentHashOf = (content: unknown): string =>
  createHash('sha256').update(canonicalJson(content), 'utf8').digest('hex');
