import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordBody } from '@app/contract/account';
import type { Envelope } from '@app/contract/envelope';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';

/** POST change-password {old_password, new_password}: other sessions end, this one stays. */
export const changePassword = (body: ChangePasswordBody) =>
  apiClient.post<null>(apiPaths.changePassword, body);

export const useChangePassword = () =>
  useMutation<Envelope<null>, Error, ChangePasswordBody>({ mutationFn: changePassword });
