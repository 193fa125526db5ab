import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { recordHistoryPaths } from '@app/contract/record-history';
import { roleMessages, type Role } from '@app/contract/roles';
import { paths } from '#web/lib/paths.ts';
import { BackButton } from '#web/components/back-button.tsx';
import { ConfirmModal } from '#web/components/confirm-modal.tsx';
import { DetailsCard } from '#web/components/details-card.tsx';
import { PencilIcon, TrashIcon } from '#web/components/icons.tsx';
import { PageHeader } from '#web/components/page-header.tsx';
import { RecordHistorySection } from '#web/components/record-history.tsx';
import { formatDateTime } from '#web/lib/format.ts';
import { useConfirmDelete } from '#web/lib/use-confirm-delete.ts';
import { useCan } from '#web/lib/use-session.ts';
import { useDeleteRole } from '../api/delete-role.ts';
import { useRole } from '../api/get-role.ts';
import { RoleFormModal } from '../components/role-form-modal.tsx';
import { RolePermissionsCard } from '../components/role-permissions-card.tsx';

/**
 * /admin/view-role/:id (docs/product.md §2.10): Role Id, Role Name, Create Time (N/A when missing), and
 * the role's Permissions. An admin who manages roles edits and deletes it here (decision 047).
 */
export function ViewRolePage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { data: role, isPending } = useRole(id);
  const mayManage = useCan('roles.manage');
  const [editing, setEditing] = useState(false);
  const deleting = useConfirmDelete<Role>(useDeleteRole(), roleMessages.deleted, () =>
    navigate(paths.roles.href()),
  );

  const actions = (
    <>
      {role && mayManage ? (
        <>
          <button
            type="button"
            className="btn btn-outline-primary d-inline-flex align-items-center gap-2"
            onClick={() => setEditing(true)}
          >
            <PencilIcon size={16} />
            Edit
          </button>
          <button
            type="button"
            className="btn btn-danger d-inline-flex align-items-center gap-2"
            onClick={() => deleting.ask(role)}
          >
            <TrashIcon size={16} />
            Delete
          </button>
        </>
      ) : null}
      <BackButton to={paths.roles.href()} />
    </>
  );

  return (
    <>
      <PageHeader title="Role Details" actions={actions} />
      <DetailsCard
        title="Role Details"
        heading={false}
        isLoading={isPending}
        missing={!role}
        missingText={roleMessages.notFound}
        items={
          role
            ? [
                { label: 'Role Id', value: role.roleId },
                { label: 'Role Name', value: role.roleName },
                { label: 'Create Time', value: formatDateTime(role.createTime) },
              ]
            : []
        }
      />
      {role ? <RolePermissionsCard role={role} /> : null}
      {role ? <RecordHistorySection kind="role" path={recordHistoryPaths.role(role._id)} /> : null}
      {mayManage ? (
        <>
          <RoleFormModal show={editing} role={role} onClose={() => setEditing(false)} />
          <ConfirmModal {...deleting.modal} />
        </>
      ) : null}
    </>
  );
}
