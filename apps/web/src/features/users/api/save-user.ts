import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Envelope } from '@app/contract/envelope';
import { apiPaths } from '@app/contract/paths';
import type { User, UserCreateBody, UserUpdateBody } from '@app/contract/users';
import { apiClient } from '#web/lib/api-client.ts';
import { userKeys } from './keys.ts';

export type SaveUserInput = { id?: undefined; body: UserCreateBody } | { id: string; body: UserUpdateBody };

/** POST users/ (with a password) or PUT users/{id} (docs/product.md §5.9: the password is removed from the payload). */
export function saveUser(input: SaveUserInput) {
  if (input.id === undefined) return apiClient.post<User>(apiPaths.users, input.body);
  const { firstName, lastName, roleId, userName, email, phone } = input.body;
  return apiClient.put<User>(apiPaths.user(encodeURIComponent(input.id)), {
    firstName,
    lastName,
    roleId,
    userName,
    email,
    phone,
  });
}

export function useSaveUser() {
  const queryClient = useQueryClient();
  return useMutation<Envelope<User>, Error, SaveUserInput>({
    mutationFn: saveUser,
    onSuccess: async (response) => {
      queryClient.setQueryData(userKeys.detail(response.data._id), response.data);
      await queryClient.invalidateQueries({ queryKey: userKeys.lists() });
    },
  });
}
