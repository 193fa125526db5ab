import { clinicUserPaths } from '@app/contract/clinic-users-texts';
import type { MfaSetup } from '@app/contract/mfa';
import { apiClient } from '#web/lib/api-client.ts';

/** The new clinic user's optional enrolment, on their fresh session (decision 088). */
export async function startClinicTwoStep(): Promise<MfaSetup> {
  return (await apiClient.post<MfaSetup>(clinicUserPaths.mfaSetup)).data;
}

export async function confirmClinicTwoStep(code: string): Promise<string[]> {
  const response = await apiClient.post<{ recoveryCodes: string[] }>(clinicUserPaths.mfaConfirm, { code });
  return response.data.recoveryCodes;
}
