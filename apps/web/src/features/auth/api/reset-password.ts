import { useMutation } from '@tanstack/react-query';
import type { ResetPasswordBody } from '@app/contract/account';
import type { Envelope } from '@app/contract/envelope';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';

/** POST reset-password {rememberToken, password, email}. */
export const resetPassword = (body: ResetPasswordBody) =>
  apiClient.post<null>(apiPaths.resetPassword, body, { anonymous: true });

export const useResetPassword = () =>
  useMutation<Envelope<null>, Error, ResetPasswordBody>({ mutationFn: resetPassword });
