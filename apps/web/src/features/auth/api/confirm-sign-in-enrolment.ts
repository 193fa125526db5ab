import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import type { SignInSession } from './sign-in.ts';

export type EnrolledSession = SignInSession & { recoveryCodes: string[] };

/** POST login/mfa/confirm (REQUIRE_MFA): a code from the app turns it on and opens the session. */
export async function confirmSignInEnrolment(body: {
  mfaToken: string;
  code: string;
}): Promise<EnrolledSession> {
  const response = await apiClient.post<EnrolledSession>(apiPaths.loginMfaConfirm, body, { anonymous: true });
  return response.data;
}
