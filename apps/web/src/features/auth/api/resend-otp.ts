import { useMutation } from '@tanstack/react-query';
import type { ForgotPasswordBody } from '@app/contract/account';
import type { Envelope } from '@app/contract/envelope';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';

/** POST resend-otp: a new OTP replaces the old one; at most one per 30 seconds per email. */
export const resendOtp = (body: ForgotPasswordBody) =>
  apiClient.post<null>(apiPaths.resendOtp, body, { anonymous: true });

export const useResendOtp = () =>
  useMutation<Envelope<null>, Error, ForgotPasswordBody>({ mutationFn: resendOtp });
