import { useMutation } from '@tanstack/react-query';
import type { ForgotPasswordBody } from '@app/contract/account';
import type { Envelope } from '@app/contract/envelope';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';

/** POST forgot-password: emails a 6-digit OTP. The answer is the same whether or not the email has an account. */
export const forgotPassword = (body: ForgotPasswordBody) =>
  apiClient.post<null>(apiPaths.forgotPassword, body, { anonymous: true });

export const useForgotPassword = () =>
  useMutation<Envelope<null>, Error, ForgotPasswordBody>({ mutationFn: forgotPassword });
