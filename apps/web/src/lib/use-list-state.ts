import { useCallback, useState } from 'react';
import type { ListKey } from '@app/contract/preferences';
import { keptPageSize, useListPreferences, useSaveListPreferences } from './list-preferences.ts';
import { useDebouncedValue } from './use-debounced-value.ts';

export type SortDirection = 'asc' | 'desc';
export type SortState = { key: string; direction: SortDirection };

/** docs/product.md §2.5: clicking the sorted column flips its direction; a newly chosen column starts ascending. */
export function nextSort(current: SortState | undefined, key: string): SortState {
  if (current?.key === key) return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { key, direction: 'asc' };
}

export type ListStateOptions = {
  initialLimit?: number;
  initialSort?: SortState;
  debounceMs?: number;
  /**
   * The list whose page size the admin keeps on the server (decision 053): used until a size is
   * picked here, and a picked one is kept. Until it is read, `ready` is false, so the first request
   * already has it. Only a size among `pageSizes` is taken.
   */
  listKey?: ListKey;
  pageSizes?: readonly number[];
};

/**
 * Page, page size, sort and a debounced search for one list. A new search or page size starts at
 * page 1 (docs/product.md §9). Feed `page`, `limit`, `sort` and `debouncedSearch` into the list's query key.
 */
export function useListState({
  initialLimit = 10,
  initialSort,
  debounceMs,
  listKey,
  pageSizes,
}: ListStateOptions = {}) {
  const { prefs, loaded: ready } = useListPreferences(listKey);
  const savePreference = useSaveListPreferences(listKey);
  const kept = keptPageSize(prefs, pageSizes, initialLimit);
  const [page, setPage] = useState(1);
  const [picked, setLimit] = useState<number | null>(null);
  const limit = picked ?? kept;
  const [sort, setSort] = useState<SortState | undefined>(initialSort);
  const [search, setSearch] = useState('');
  const debouncedSearch = useDebouncedValue(search.trim(), debounceMs);
  const [searchedFor, setSearchedFor] = useState(debouncedSearch);
  if (searchedFor !== debouncedSearch) {
    // Adjusting state while rendering: the new search and page 1 arrive in the same render.
    setSearchedFor(debouncedSearch);
    setPage(1);
  }

  const changePage = useCallback(
    (next: { page: number; limit: number }) => {
      if (next.limit !== limit) savePreference({ pageSize: next.limit });
      setPage(next.page);
      setLimit(next.limit);
    },
    [limit, savePreference],
  );
  const toggleSort = useCallback((key: string) => setSort((current) => nextSort(current, key)), []);

  return {
    page,
    limit,
    sort,
    search,
    debouncedSearch,
    setPage,
    setSearch,
    setSort,
    toggleSort,
    changePage,
    ready,
  };
}
