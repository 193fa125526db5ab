import { useState } from 'react';

const none: ReadonlySet<string> = new Set();

/**
 * The rows a list has picked, kept across its pages, or "every row matching" (the server resolves
 * that from the list's filters, so no page needs all the ids). `filtersKey` names the list's
 * filters and search: when it changes the selection was of other rows, and is cleared.
 */
export function useRowSelection(filtersKey: string) {
  const [state, setState] = useState({ key: filtersKey, ids: none, allMatching: false });
  // Derived, not reset in an effect: no render ever shows the old selection under new filters.
  const current = state.key === filtersKey ? state : { key: filtersKey, ids: none, allMatching: false };
  const set = (ids: ReadonlySet<string>, allMatching = false) =>
    setState({ key: filtersKey, ids, allMatching });

  return {
    ids: current.ids,
    allMatching: current.allMatching,
    isEmpty: current.ids.size === 0 && !current.allMatching,
    /** The props of DataTable's `selection` (it adds each row's label). */
    table: {
      selected: current.ids,
      allMatching: current.allMatching,
      /**
       * Unticking a row while all matching are selected leaves what is ticked on screen (the rows
       * picked and this page's), without that row.
       */
      onToggle: (id: string, selected: boolean, pageIds: readonly string[]) => {
        const next = new Set(current.allMatching ? [...current.ids, ...pageIds] : current.ids);
        if (selected) next.add(id);
        else next.delete(id);
        set(next);
      },
      onTogglePage: (pageIds: readonly string[], selected: boolean) => {
        const next = new Set(current.ids);
        for (const id of pageIds) {
          if (selected) next.add(id);
          else next.delete(id);
        }
        set(next);
      },
    },
    selectAllMatching: () => set(current.ids, true),
    clear: () => set(none),
  };
}
export type RowSelectionState = ReturnType<typeof useRowSelection>;
export type TableSelection = RowSelectionState['table'];
