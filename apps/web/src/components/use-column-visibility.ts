import type { ListKey } from '@app/contract/preferences';
import type { ColumnChoice } from './column-settings.tsx';
import { useListPreferences, useSaveListPreferences } from '#web/lib/list-preferences.ts';

/**
 * Which columns a list shows and in what order, kept in the admin's preferences on the server
 * (decision 053, order: decision 057), so the choice follows them to another browser and survives
 * signing out. Until a choice is made, each column's own default (hiddenByDefault ones off) in the
 * list's order; mandatory columns always show. What is stored is the shown columns in order.
 *
 * `listColumns`: every column kept under the key when several tables share it (the three device-user
 * tables, the two log tabs), in an order that agrees with each table's own. A choice in one table
 * leaves the others' columns where they were: only a column they share changes for both.
 */
export function useColumnVisibility(
  list: ListKey,
  columns: readonly ColumnChoice[],
  listColumns: readonly ColumnChoice[] = columns,
) {
  const { prefs } = useListPreferences(list);
  const save = useSaveListPreferences(list);
  const chosen = prefs.columns ? [...new Set(prefs.columns)] : null;
  const own = new Set(columns.map((c) => c.key));
  const mandatory = columns.filter((c) => c.mandatory).map((c) => c.key);
  const visible = chosen
    ? [...mandatory.filter((k) => !chosen.includes(k)), ...chosen.filter((k) => own.has(k))]
    : columns.filter((c) => c.mandatory || !c.hiddenByDefault).map((c) => c.key);
  const setVisible = (keys: readonly string[]) => {
    const mine = [...new Set([...keys, ...mandatory])].filter((k) => own.has(k));
    const before = chosen ?? listColumns.filter((c) => c.mandatory || !c.hiddenByDefault).map((c) => c.key);
    // The other tables' columns stay after the same column of this table as before (or first), so
    // their order does not change; this table's follow the new order.
    const leading: string[] = [];
    const after = new Map<string, string[]>();
    let anchor: string | null = null;
    for (const key of before) {
      if (own.has(key)) anchor = mine.includes(key) ? key : anchor;
      else if (anchor) after.set(anchor, [...(after.get(anchor) ?? []), key]);
      else leading.push(key);
    }
    const next = [...leading, ...mine.flatMap((key) => [key, ...(after.get(key) ?? [])])];
    save({ columns: next });
  };
  return [visible, setVisible] as const;
}

/** A table's columns as the chooser offers them (the Actions column is the table's, not a choice). */
export const columnChoicesOf = (columns: readonly ColumnChoice[]): ColumnChoice[] =>
  columns.map(({ key, header, mandatory, hiddenByDefault }) => ({ key, header, mandatory, hiddenByDefault }));

/** A list's columns: what the chooser offers, what shows in order, and how to change it. */
export type ListColumns = {
  list: ListKey;
  choices: readonly ColumnChoice[];
  visible: readonly string[];
  setVisible: (keys: readonly string[]) => void;
};

/** useColumnVisibility for ListTools and the table: `visibleColumns={columns.visible}`. */
export function useListColumns(
  list: ListKey,
  choices: readonly ColumnChoice[],
  listColumns?: readonly ColumnChoice[],
): ListColumns {
  const [visible, setVisible] = useColumnVisibility(list, choices, listColumns);
  return { list, choices, visible, setVisible };
}
