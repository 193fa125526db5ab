import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '@app/contract/paths';
import type { ListKey, SavedView, SavedViewBody } from '@app/contract/preferences';
import { apiClient } from '#web/lib/api-client.ts';
import { savedViewKeys } from './list-preferences.ts';

export const useSavedViews = (list: ListKey) =>
  useQuery({
    queryKey: savedViewKeys.list({ list }),
    queryFn: async ({ signal }) =>
      (await apiClient.get<{ views: SavedView[] }>(apiPaths.savedViews, { query: { list }, signal })).data
        .views,
  });

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
