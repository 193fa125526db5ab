import type { ListKey } from '@app/contract/preferences';
import type { ColumnChoice } from './column-settings.tsx';
import type { ListColumns } from './list-tools.tsx';
import { useListPreferences, useSaveListPreferences } from '#web/lib/list-preferences.ts';

/**
 * Which columns a list shows and in what order, kept in the admin's preferences on the server
 * (decision 053, order: decision 057), so the choice follows them to another browser and survives
 * signing out. Until a choice is made, each column's own default (hiddenByDefault ones off) in the
 * list's order; mandatory columns always show. What is stored is the shown columns in order.
 *
 * `listColumns`: every column kept under the key when several tables share it (the three device-user
 * tables, the two log tabs). A table saves its own columns first and keeps the others' as they were,
 * so choosing in one table does not hide or reorder another's columns.
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
    const mine = [...new Set([...mandatory.filter((k) => !keys.includes(k)), ...keys])].filter((k) =>
      own.has(k),
    );
    const others = chosen
      ? chosen.filter((k) => !own.has(k))
      : listColumns.filter((c) => !own.has(c.key) && (c.mandatory || !c.hiddenByDefault)).map((c) => c.key);
    save({ columns: [...mine, ...others] });
  };
  return [visible, setVisible] as const;
}

/** A table's columns as the chooser offers them (the Actions column is the table's, not a choice). */
export const columnChoicesOf = (
  columns: readonly { key: string; header: string; mandatory?: boolean }[],
): ColumnChoice[] => columns.map(({ key, header, mandatory }) => ({ key, header, mandatory }));

/** useColumnVisibility for ListTools and the table: `visibleColumns={columns.visible}`. */
export function useListColumns(
  list: ListKey,
  choices: readonly ColumnChoice[],
  listColumns?: readonly ColumnChoice[],
): ListColumns {
  const [visible, setVisible] = useColumnVisibility(list, choices, listColumns);
  return { list, choices, visible, setVisible };
}
