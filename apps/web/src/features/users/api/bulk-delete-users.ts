import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BulkResult } from '@app/contract/bulk-actions';
import type { UserBulkFilters } from '@app/contract/users';
import type { Envelope } from '@app/contract/envelope';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { userKeys } from './keys.ts';

/** The users picked, or every user the list's search matches (the server resolves them). */
export type UserBulkSelection = { ids: string[] } | { allMatching: UserBulkFilters };

/** POST users/bulk-delete: answered user by user (decision 055). */
export const bulkDeleteUsers = (selection: UserBulkSelection) =>
  apiClient.post<BulkResult>(apiPaths.usersBulkDelete, selection);

/** Every user list and any open user refetch (a deleted one then reads as not found). */
export function useBulkDeleteUsers() {
  const queryClient = useQueryClient();
  return useMutation<Envelope<BulkResult>, Error, UserBulkSelection>({
    mutationFn: bulkDeleteUsers,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}
