import { useMutation } from '@tanstack/react-query';
import type { VerifyOtpBody } from '@app/contract/account';
import type { Envelope } from '@app/contract/envelope';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';

export type VerifyOtpResult = { rememberToken: string; email: string };

/** POST verify-email: a right OTP buys the reset token. */
export const verifyOtp = (body: VerifyOtpBody) =>
  apiClient.post<VerifyOtpResult>(apiPaths.verifyEmail, body, { anonymous: true });

export const useVerifyOtp = () =>
  useMutation<Envelope<VerifyOtpResult>, Error, VerifyOtpBody>({ mutationFn: verifyOtp });
