import { useCallback, useEffect, useEffectEvent, useState } from 'react';
import { useUrlSearchParams } from './use-url-search-params.ts';
import type { ListKey } from '@app/contract/preferences';
import { keptPageSize, useListPreferences, useSaveListPreferences } from './list-preferences.ts';
import { useDebouncedValue } from './use-debounced-value.ts';
import { nextSort, type SortState } from './use-list-state.ts';

export type UrlListStateOptions = {
  /** Page sizes the list offers; a limit in the URL outside them falls back to the first. */
  pageSizes: readonly number[];
  /** Sort keys the list accepts from the URL. */
  sortKeys?: readonly string[];
  debounceMs?: number;
  /**
   * The list whose page size and sort the admin keeps on the server (decision 053): used when the
   * URL names none, and a new choice is kept. Until they are read, `ready` is false.
   */
  listKey?: ListKey;
};

const positive = (value: string | null) => {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : null;
};

/**
 * Page, page size, sort and search of a list kept in the URL (?page=2&limit=25&sort=city&direction=asc&search=x),
 * so a reload or Back shows the same rows. The search box is debounced (docs/product.md §9: 900 ms) and a new
 * search or page size starts at page 1. Defaults are left out of the URL.
 */
export function useUrlListState({ pageSizes, sortKeys = [], debounceMs, listKey }: UrlListStateOptions) {
  const [params, setParams] = useUrlSearchParams();
  const { prefs: preferred, loaded: ready } = useListPreferences(listKey);
  const savePreference = useSaveListPreferences(listKey);
  const page = positive(params.get('page')) ?? 1;
  const limitParam = positive(params.get('limit'));
  const defaultLimit = keptPageSize(preferred, pageSizes, pageSizes[0] ?? 10);
  const limit = limitParam && pageSizes.includes(limitParam) ? limitParam : defaultLimit;
  const sortKey = params.get('sort');
  const sort: SortState | undefined =
    sortKey && sortKeys.includes(sortKey)
      ? { key: sortKey, direction: params.get('direction') === 'desc' ? 'desc' : 'asc' }
      : preferred.sort && sortKeys.includes(preferred.sort.key)
        ? preferred.sort
        : undefined;
  const urlSearch = params.get('search') ?? '';

  const [search, setSearch] = useState(urlSearch);
  const debouncedSearch = useDebouncedValue(search.trim(), debounceMs);

  const update = useCallback(
    (changes: Record<string, string | number | null>, replace = false) => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(changes)) {
            if (value === null || value === '') next.delete(key);
            else next.set(key, String(value));
          }
          return next;
        },
        { replace },
      );
    },
    [setParams],
  );

  // The typed search reaches the URL once typing pauses; it replaces the entry, so Back skips
  // keystrokes. Only a change of the debounced text pushes: a URL changed by Back is not pushed back.
  const pushSearch = useEffectEvent((value: string) => {
    if (value !== urlSearch.trim()) update({ search: value, page: null }, true);
  });
  useEffect(() => pushSearch(debouncedSearch), [debouncedSearch]);

  // Back/forward to a URL with another search puts that search in the box.
  const [shownUrlSearch, setShownUrlSearch] = useState(urlSearch);
  if (shownUrlSearch !== urlSearch) {
    setShownUrlSearch(urlSearch);
    if (urlSearch.trim() !== search.trim()) setSearch(urlSearch);
  }

  const changePage = useCallback(
    (next: { page: number; limit: number }) => {
      if (next.limit !== limit) savePreference({ pageSize: next.limit });
      update({
        page: next.page > 1 ? next.page : null,
        limit: next.limit === defaultLimit ? null : next.limit,
      });
    },
    [update, limit, defaultLimit, savePreference],
  );
  const toggleSort = (key: string) => {
    const next = nextSort(sort, key);
    savePreference({ sort: next });
    update({ sort: next.key, direction: next.direction, page: null });
  };

  return {
    page,
    limit,
    sort,
    search,
    setSearch,
    debouncedSearch: urlSearch.trim(),
    changePage,
    toggleSort,
    ready,
  };
}
