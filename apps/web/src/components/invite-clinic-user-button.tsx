import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminInvitationBodySchema, type PendingInvitation } from '@app/contract/clinic-users';
import {
  clinicRoleLabels,
  clinicRoles,
  clinicUserMessages,
  clinicUserPaths,
  invitationValidHours,
  type ClinicRole,
} from '@app/contract/clinic-users-texts';
import { apiClient } from '../lib/api-client.ts';
import { FormModal, useFormModal } from './form-modal.tsx';

type Body = { email: string; role: ClinicRole };
const blank: Body = { email: '', role: 'manager' };

/**
 * The supplier's "Invite user" on a customer's page (decision 088): the email and role (Manager by
 * default) of a clinic user to invite; they are mailed a link to set a password. Shared, as the
 * customer's page (features/customers) shows it in its Users card: the answer is read again there
 * (its query is under the customer's detail key).
 */
export function InviteClinicUserButton({ customerId }: { customerId: string }) {
  const [show, setShow] = useState(false);
  const queryClient = useQueryClient();
  const invite = useMutation({
    mutationFn: (body: Body) =>
      apiClient.post<PendingInvitation>(
        clinicUserPaths.adminInvitations(encodeURIComponent(customerId)),
        body,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['customers', 'detail', customerId] }),
  });
  const form = useFormModal({ show, resolver: zodResolver(adminInvitationBodySchema), blank });
  return (
    <>
      <button type="button" className="btn btn-sm btn-primary" onClick={() => setShow(true)}>
        Invite user
      </button>
      <FormModal
        form={form}
        show={show}
        onClose={() => setShow(false)}
        title="Invite a clinic user"
        submitLabel="Send invitation"
        pending={invite.isPending}
        onSave={(body) => invite.mutateAsync(body)}
        saved={clinicUserMessages.invitationSent}
        fieldOfError={(error) => (error.status === 409 ? 'email' : undefined)}
      >
        {form.field('email', 'Email', { type: 'email' })}
        {form.select(
          'role',
          'Role',
          clinicRoles.map((role) => (
            <option key={role} value={role}>
              {clinicRoleLabels[role]}
            </option>
          )),
          `They get an email with a link to set their password, valid for ${invitationValidHours} hours.`,
        )}
      </FormModal>
    </>
  );
}
