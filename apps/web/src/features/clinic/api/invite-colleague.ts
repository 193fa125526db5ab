import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClinicInvitationBody, PendingInvitation } from '@app/contract/clinic-users';
import { clinicUserPaths } from '@app/contract/clinic-users-texts';
import { apiClient } from '#web/lib/api-client.ts';
import { clinicUserKeys } from './keys.ts';

export const inviteColleague = (body: ClinicInvitationBody) =>
  apiClient.post<PendingInvitation>(clinicUserPaths.users, body);

/** POST clinic/users: mails the invitation; the list then shows it as waiting. */
export function useInviteColleague() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: inviteColleague,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clinicUserKeys.lists() }),
  });
}
