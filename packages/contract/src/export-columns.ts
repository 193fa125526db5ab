import { z } from 'zod';

/** A list's exportable columns: the table's column key and the CSV header, in the list's order. */
export type ExportColumnHeaders = Readonly<Record<string, string>>;

/**
 * Issue 17 item 3: an export's `columns` query, the columns to write in order (comma-separated table
 * column keys, e.g. `columns=email,userName`). Omitted: the list's default columns. A key the list
 * does not export is a 400 naming the field and the keys it takes.
 */
export function exportColumnsQuery<K extends string>(headers: Readonly<Record<K, string>>) {
  const keys = Object.keys(headers) as [K, ...K[]];
  return z
    .string()
    .max(500, 'columns must be at most 500 characters')
    .transform((text) => text.split(',').filter(Boolean))
    .pipe(
      z
        .array(z.enum(keys, { error: `columns must be among ${keys.join(', ')}` }))
        .min(1, 'columns must name at least one column'),
    )
    .optional();
}
