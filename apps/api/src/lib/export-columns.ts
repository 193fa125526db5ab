/** What a CSV cell may hold; null and undefined are written empty. */
export type Cell = string | number | null | undefined;

/** One column of a list's export: the table's column key, the list's header, the row's value. */
export type ExportColumn<Row> = { key: string; header: string; cell: (row: Row) => Cell };

/**
 * The columns an export writes (issue 17 item 3): those the query's `columns` named, in its order,
 * or the list's defaults (every column it exports unless `defaults` says fewer). Headers come from
 * the contract, keyed as the console's table columns; `cells` gives each key's value, so a masked
 * value stays masked whichever columns are chosen (decision 058).
 */
export function chosenColumns<K extends string, Row>(
  headers: Readonly<Record<K, string>>,
  cells: Readonly<Record<K, (row: Row) => Cell>>,
  chosen: readonly K[] | undefined,
  defaults: readonly K[] = Object.keys(headers) as K[],
): ExportColumn<Row>[] {
  return (chosen ?? defaults).map((key) => ({ key, header: headers[key], cell: cells[key] }));
}
