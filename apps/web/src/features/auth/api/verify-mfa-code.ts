import type { MfaVerifyBody } from '@app/contract/mfa';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import type { SignInSession } from './sign-in.ts';

/** POST login/mfa: the step token and a TOTP or recovery code; answers the session as login does. */
export async function verifyMfaCode(body: MfaVerifyBody): Promise<SignInSession> {
  // Anonymous: a wrong code is a 401 for this form, not the end of a session.
  const response = await apiClient.post<SignInSession>(apiPaths.loginMfa, body, { anonymous: true });
  return response.data;
}
