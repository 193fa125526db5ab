import { useCallback } from 'react';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '@app/contract/paths';
import type { ListKey, ListPreferences, Preferences } from '@app/contract/preferences';
import { apiClient, notifyError } from '#web/lib/api-client.ts';
import { cachedColorMode } from '#web/lib/color-mode.ts';
import { createQueryKeys } from '#web/lib/query-keys.ts';

/** The signed-in admin's list preferences and saved views (decision 053). */
export const preferenceKeys = createQueryKeys('preferences');
export const savedViewKeys = createQueryKeys('saved-views');

/*
 * A list's preferences before any are kept. Here, not in the contract: importing a value from
 * preferences.ts would put all its zod schemas on every list's first screen (architecture.md §7).
 */
const emptyListPreferences: ListPreferences = { columns: null, pageSize: null, sort: null };

/**
 * Lists changed in this browser while the read was on its way: the read answers with what was kept
 * before the change, and must not undo it (a column shown, then hidden again by a slow first read).
 */
const changedDuringRead = new Map<ListKey, ListPreferences>();

export const preferencesQuery = queryOptions({
  queryKey: preferenceKeys.all,
  queryFn: async ({ signal }) => {
    changedDuringRead.clear();
    const read = (await apiClient.get<Preferences>(apiPaths.preferences, { signal })).data;
    const lists = { ...read.lists, ...Object.fromEntries(changedDuringRead) };
    changedDuringRead.clear();
    return { ...read, lists };
  },
  // Read once a session; this browser's own changes update it in place.
  staleTime: Infinity,
});

/**
 * One list's preferences, the defaults until they are read (or when never set); `loaded` once the
 * read has answered either way. Without a list (one that keeps none), the defaults at once.
 */
export function useListPreferences(list: ListKey | undefined): { prefs: ListPreferences; loaded: boolean } {
  const { data, isSuccess, isError } = useQuery({ ...preferencesQuery, enabled: list !== undefined });
  if (!list) return { prefs: emptyListPreferences, loaded: true };
  return { prefs: data?.lists?.[list] ?? emptyListPreferences, loaded: isSuccess || isError };
}

/** The page size a list opens at: the kept one when the list offers it, else `fallback`. */
export const keptPageSize = (
  prefs: ListPreferences,
  sizes: readonly number[] | undefined,
  fallback: number,
) => (prefs.pageSize && sizes?.includes(prefs.pageSize) ? prefs.pageSize : fallback);

/** Saves one list's preferences: shown at once, sent in the background, a failure toasted. */
export function useSaveListPreferences(list: ListKey | undefined) {
  const queryClient = useQueryClient();
  const { mutate } = useMutation({
    mutationFn: ({ key, prefs }: { key: ListKey; prefs: ListPreferences }) =>
      apiClient.put(apiPaths.listPreferences(key), prefs),
    onError: (error) => notifyError(error),
  });
  return useCallback(
    (change: Partial<ListPreferences>) => {
      if (!list) return;
      const current = queryClient.getQueryData<Preferences>(preferenceKeys.all) ?? {
        lists: {},
        colorMode: cachedColorMode(),
      };
      const prefs = { ...emptyListPreferences, ...current.lists[list], ...change };
      if (queryClient.isFetching({ queryKey: preferenceKeys.all }) > 0) changedDuringRead.set(list, prefs);
      queryClient.setQueryData<Preferences>(preferenceKeys.all, {
        ...current,
        lists: { ...current.lists, [list]: prefs },
      });
      mutate({ key: list, prefs });
    },
    [list, queryClient, mutate],
  );
}
