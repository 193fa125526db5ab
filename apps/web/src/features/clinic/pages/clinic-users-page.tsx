import { useState } from 'react';
import type { ClinicUser, PendingInvitation } from '@app/contract/clinic-users';
import { clinicRoleLabels, clinicUserMessages } from '@app/contract/clinic-users-texts';
import { ConfirmModal } from '#web/components/confirm-modal.tsx';
import { DataTable, type DataTableColumn } from '#web/components/data-table.tsx';
import { TrashIcon } from '#web/components/icons.tsx';
import { LoadError } from '#web/components/load-error.tsx';
import { PageHeader } from '#web/components/page-header.tsx';
import { AddButton } from '#web/components/paged-table.tsx';
import { formatDateTime } from '#web/lib/format.ts';
import { useConfirmDelete } from '#web/lib/use-confirm-delete.ts';
import { useSession } from '#web/lib/use-session.ts';
import { useClinicUsers } from '../api/get-clinic-users.ts';
import { useRemoveClinicUser } from '../api/remove-clinic-user.ts';
import { InviteColleagueModal } from '../components/invite-colleague-modal.tsx';

const fullName = (u: ClinicUser) => [u.firstName, u.lastName].filter(Boolean).join(' ') || null;

const userColumns: DataTableColumn<ClinicUser>[] = [
  { key: 'name', header: 'Name', render: fullName },
  { key: 'email', header: 'Email' },
  { key: 'role', header: 'Role', render: (u) => clinicRoleLabels[u.role] },
  { key: 'mfa', header: 'Two-step sign-in', render: (u) => (u.mfaEnabled ? 'On' : 'Off') },
  { key: 'createdAt', header: 'Since', render: (u) => formatDateTime(u.createdAt) },
];

const invitationColumns: DataTableColumn<PendingInvitation>[] = [
  { key: 'email', header: 'Email' },
  { key: 'role', header: 'Role', render: (i) => clinicRoleLabels[i.role] },
  { key: 'createdAt', header: 'Sent', render: (i) => formatDateTime(i.createdAt) },
  { key: 'expiresAt', header: 'Link works until', render: (i) => formatDateTime(i.expiresAt) },
];

/** /clinic/users: a manager's own clinic's people, inviting a colleague and removing one (decision 088). */
export function ClinicUsersPage() {
  const { data, isPending, isError, error, refetch } = useClinicUsers();
  const [inviting, setInviting] = useState(false);
  const removing = useConfirmDelete<ClinicUser>(useRemoveClinicUser(), clinicUserMessages.removed);
  const myId = useSession((s) => s.details?._id);

  return (
    <>
      <PageHeader
        title={clinicUserMessages.usersTitle}
        actions={<AddButton onClick={() => setInviting(true)}>Invite a colleague</AddButton>}
      />
      {isError ? (
        <LoadError
          error={error}
          fallback="The clinic's users could not be loaded."
          onRetry={() => void refetch()}
        />
      ) : (
        <>
          <DataTable
            label="Clinic users"
            columns={userColumns}
            rows={data?.users}
            getRowKey={(u) => u._id}
            emptyText={clinicUserMessages.usersEmpty}
            isLoading={isPending}
            srNoHeader="Sr No."
            actionsHeader="Actions"
            actions={(u) =>
              u._id === myId ? null : (
                <button
                  type="button"
                  className="btn btn-sm btn-outline-danger"
                  aria-label={`Remove ${u.email}`}
                  title="Remove"
                  onClick={() => removing.ask(u)}
                >
                  <TrashIcon size={16} />
                </button>
              )
            }
          />
          <h2 className="h5 mt-4">Waiting invitations</h2>
          <DataTable
            label="Waiting invitations"
            columns={invitationColumns}
            rows={data?.invitations}
            getRowKey={(i) => i._id}
            emptyText="No invitation is waiting."
            isLoading={isPending}
            srNoHeader="Sr No."
          />
        </>
      )}
      <InviteColleagueModal show={inviting} onClose={() => setInviting(false)} />
      <ConfirmModal
        {...removing.modal}
        title="Remove user"
        text="They can no longer sign in to the clinic portal. Remove this user?"
        pendingText="Removing..."
      />
    </>
  );
}
