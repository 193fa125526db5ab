import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '@app/contract/paths';
import type { ListKey, SavedView, SavedViewBody } from '@app/contract/preferences';
import { apiClient } from '#web/lib/api-client.ts';
import { savedViewKeys } from './list-preferences.ts';

/**
 * A list's saved views, asked for when its Views panel is about to open (the pointer or focus on the
 * button) and shown when it opens: fresh for half a minute, so opening it then does not ask again.
 * Saving or deleting a view refreshes them.
 */
export const savedViewsQuery = (list: ListKey) =>
  queryOptions({
    queryKey: savedViewKeys.list({ list }),
    queryFn: async ({ signal }) =>
      (await apiClient.get<{ views: SavedView[] }>(apiPaths.savedViews, { query: { list }, signal })).data
        .views,
    staleTime: 30_000,
  });

export const useSavedViews = (list: ListKey) => useQuery(savedViewsQuery(list));

export function useSaveView() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: SavedViewBody) =>
      (await apiClient.post<SavedView>(apiPaths.savedViews, body)).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedViewKeys.lists() }),
  });
}

export function useDeleteView() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiClient.delete(apiPaths.savedView(id)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedViewKeys.lists() }),
  });
}
