import type { ListKey } from '@app/contract/preferences';
import type { ColumnChoice } from './column-settings.tsx';
import { useListPreferences, useSaveListPreferences } from '#web/lib/list-preferences.ts';

/**
 * Which columns a list shows, kept in the admin's preferences on the server (decision 053), so the
 * choice follows them to another browser and survives signing out. Until a choice is made, each
 * column's own default (hiddenByDefault ones off); mandatory columns always show. What is stored is
 * the shown columns in order.
 */
export function useColumnVisibility(list: ListKey, columns: readonly ColumnChoice[]) {
  const { prefs } = useListPreferences(list);
  const save = useSaveListPreferences(list);
  const chosen = prefs.columns;
  const visible = columns
    .filter((c) => c.mandatory || (chosen ? chosen.includes(c.key) : !c.hiddenByDefault))
    .map((c) => c.key);
  const setVisible = (keys: readonly string[]) =>
    save({ columns: columns.filter((c) => c.mandatory || keys.includes(c.key)).map((c) => c.key) });
  return [visible, setVisible] as const;
}
