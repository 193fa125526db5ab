import type { MfaSetup } from '@app/contract/mfa';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';

/** POST login/mfa/setup (REQUIRE_MFA): a new secret for the user the enrol token names. */
export async function startSignInEnrolment(mfaToken: string): Promise<MfaSetup> {
  const response = await apiClient.post<MfaSetup>(apiPaths.loginMfaSetup, { mfaToken }, { anonymous: true });
  return response.data;
}
