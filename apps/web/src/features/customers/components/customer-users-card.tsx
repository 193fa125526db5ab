import type { ReactNode } from 'react';
import type { ClinicUser, PendingInvitation } from '@app/contract/clinic-users';
import { clinicRoleLabels, clinicUserMessages } from '@app/contract/clinic-users-texts';
import { DataTable, type DataTableColumn } from '#web/components/data-table.tsx';
import { SectionCard } from '#web/components/details-card.tsx';
import { LoadError } from '#web/components/load-error.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { formatDateTime } from '#web/lib/format.ts';
import { useCustomerUsers } from '../api/get-customer-users.ts';

const userColumns: DataTableColumn<ClinicUser>[] = [
  {
    key: 'name',
    header: 'Name',
    truncate: true,
    render: (u) => [u.firstName, u.lastName].filter(Boolean).join(' ') || '—',
  },
  { key: 'email', header: 'Email', truncate: true },
  { key: 'role', header: 'Role', render: (u) => clinicRoleLabels[u.role] },
  { key: 'mfaEnabled', header: 'Two-step sign-in', render: (u) => (u.mfaEnabled ? 'On' : 'Off') },
  { key: 'createdAt', header: 'Since', className: 'text-nowrap', render: (u) => formatDateTime(u.createdAt) },
];
const invitationColumns: DataTableColumn<PendingInvitation>[] = [
  { key: 'email', header: 'Email', truncate: true },
  { key: 'role', header: 'Role', render: (i) => clinicRoleLabels[i.role] },
  { key: 'createdAt', header: 'Sent', className: 'text-nowrap', render: (i) => formatDateTime(i.createdAt) },
  {
    key: 'expiresAt',
    header: 'Expires',
    className: 'text-nowrap',
    render: (i) => formatDateTime(i.expiresAt),
  },
];

/**
 * The clinic's users (issue 39 item 3): who signs in to its portal, and the invitations waiting.
 * A seam of its own: inviting a clinic's manager (the clinic users' part) goes in `actions`.
 */
export function CustomerUsersCard({ customerId, actions }: { customerId: string; actions?: ReactNode }) {
  const query = useCustomerUsers(customerId);
  const invitations = query.data?.invitations ?? [];
  return (
    <SectionCard title="Users" actions={actions}>
      {/* No users route yet on this server reads as no users (the clinic users' part may be absent). */}
      {query.isError && !query.data && !(query.error instanceof ApiError && query.error.status === 404) ? (
        <LoadError
          error={query.error}
          fallback="The clinic's users could not be loaded."
          onRetry={() => void query.refetch()}
        />
      ) : (
        <>
          <DataTable
            label="Clinic users"
            columns={userColumns}
            rows={query.isError ? [] : query.data?.users}
            getRowKey={(u) => u._id}
            emptyText={clinicUserMessages.usersEmpty}
            isLoading={query.isPending && !query.isError}
          />
          {invitations.length ? (
            <>
              <h3 className="h6 mt-3">Invitations waiting</h3>
              <DataTable
                label="Invitations waiting"
                columns={invitationColumns}
                rows={invitations}
                getRowKey={(i) => i._id}
                emptyText=""
              />
            </>
          ) : null}
        </>
      )}
    </SectionCard>
  );
}
