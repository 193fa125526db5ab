import type { AcceptInvitationBody } from '@app/contract/clinic-users';
import { clinicUserPaths } from '@app/contract/clinic-users-texts';
import { apiClient } from '#web/lib/api-client.ts';
import type { SignInResult } from './sign-in.ts';

/** POST the name and password: answers as sign-in does, a session or the enrolment step. */
export async function acceptInvitation(token: string, body: AcceptInvitationBody): Promise<SignInResult> {
  const path = clinicUserPaths.invitation(encodeURIComponent(token));
  const response = await apiClient.post<SignInResult>(path, body, { anonymous: true });
  return response.data;
}
