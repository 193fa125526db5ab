import type { Invitation } from '@app/contract/clinic-users';
import { clinicUserPaths } from '@app/contract/clinic-users-texts';
import { apiClient } from '#web/lib/api-client.ts';

/** GET the invitation a link names (no sign-in): 404 unknown, 410 used, replaced or expired. */
export async function getInvitation(token: string, signal?: AbortSignal): Promise<Invitation> {
  const path = clinicUserPaths.invitation(encodeURIComponent(token));
  const response = await apiClient.get<Invitation>(path, { anonymous: true, signal });
  return response.data;
}
