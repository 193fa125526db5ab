import { zodResolver } from '@hookform/resolvers/zod';
import { clinicInvitationBodySchema, type ClinicInvitationBody } from '@app/contract/clinic-users';
import {
  clinicRoleLabels,
  clinicRoles,
  clinicUserMessages,
  invitationValidHours,
} from '@app/contract/clinic-users-texts';
import { FormModal, useFormModal } from '#web/components/form-modal.tsx';
import { useInviteColleague } from '../api/invite-colleague.ts';

const blank: ClinicInvitationBody = { email: '', role: 'staff' };

/** Invite a colleague: their email and role; they get a link to set a password (decision 088). */
export function InviteColleagueModal({ show, onClose }: { show: boolean; onClose: () => void }) {
  const invite = useInviteColleague();
  const form = useFormModal({ show, resolver: zodResolver(clinicInvitationBodySchema), blank });
  return (
    <FormModal
      form={form}
      show={show}
      onClose={onClose}
      title={clinicUserMessages.inviteTitle}
      submitLabel="Send invitation"
      pending={invite.isPending}
      onSave={(body) => invite.mutateAsync(body)}
      saved={clinicUserMessages.invitationSent}
      // An email that already has an account belongs under the email field.
      fieldOfError={(error) => (error.status === 409 ? 'email' : undefined)}
    >
      {form.field('email', 'Email', { type: 'email', autoComplete: 'off' })}
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
  );
}
