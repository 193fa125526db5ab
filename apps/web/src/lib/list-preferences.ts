import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '@app/contract/paths';
import type { ListKey, ListPreferences, Preferences } from '@app/contract/preferences';
import { emptyListPreferences } from '@app/contract/preferences';
import { apiClient, notifyError } from '#web/lib/api-client.ts';
import { createQueryKeys } from '#web/lib/query-keys.ts';

/** The signed-in admin's list preferences and saved views (decision 053). */
export const preferenceKeys = createQueryKeys('preferences');
export const savedViewKeys = createQueryKeys('saved-views');

const preferencesQuery = queryOptions({
  queryKey: preferenceKeys.all,
  queryFn: async ({ signal }) => (await apiClient.get<Preferences>(apiPaths.preferences, { signal })).data,
  // Read once a session; this browser's own changes update it in place.
  staleTime: Infinity,
});

/** One list's preferences, the defaults until they are read (or when never set). */
export function useListPreferences(list: ListKey): { prefs: ListPreferences; loaded: boolean } {
  const { data, isSuccess, isError } = useQuery(preferencesQuery);
  return { prefs: data?.lists?.[list] ?? emptyListPreferences, loaded: isSuccess || isError };
}

/** Saves one list's preferences: shown at once, sent in the background, a failure toasted. */
export function useSaveListPreferences(list: ListKey) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (prefs: ListPreferences) => apiClient.put(apiPaths.listPreferences(list), prefs),
    onError: (error) => notifyError(error),
  });
  return (change: Partial<ListPreferences>) => {
    const current = queryClient.getQueryData<Preferences>(preferenceKeys.all) ?? { lists: {} };
    const prefs = { ...emptyListPreferences, ...current.lists[list], ...change };
    queryClient.setQueryData<Preferences>(preferenceKeys.all, { lists: { ...current.lists, [list]: prefs } });
    mutation.mutate(prefs);
  };
}
