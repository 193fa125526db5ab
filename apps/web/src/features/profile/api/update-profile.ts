import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProfileUpdateFields } from '@app/contract/account';
import type { AdminProfile } from '@app/contract/auth';
import type { Envelope } from '@app/contract/envelope';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { mergeProfile } from '#web/lib/session-store.ts';
import { profileKeys } from './keys.ts';

export type UpdateProfileInput = { fields: ProfileUpdateFields; email: string; file: File | null };

/** PUT profile as multipart: firstName, lastName, userName, email (read-only on the server), phone, file. */
export function updateProfile({ fields, email, file }: UpdateProfileInput) {
  const form = new FormData();
  form.append('firstName', fields.firstName ?? '');
  form.append('lastName', fields.lastName ?? '');
  form.append('userName', fields.userName);
  form.append('email', email);
  form.append('phone', fields.phone);
  if (file) form.append('file', file);
  return apiClient.put<AdminProfile>(apiPaths.profile, form);
}

/** The answer refreshes the profile and is merged into the stored session, so the top bar changes at once. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation<Envelope<AdminProfile>, Error, UpdateProfileInput>({
    mutationFn: updateProfile,
    onSuccess: (response) => {
      queryClient.setQueryData(profileKeys.detail('me'), response.data);
      mergeProfile(response.data);
    },
  });
}
