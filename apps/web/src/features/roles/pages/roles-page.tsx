import { useState } from 'react';
import { Link } from 'react-router';
import { roleMessages, type Role } from '@app/contract/roles';
import { ConfirmModal } from '../../../components/confirm-modal.tsx';
import { DataTable, type DataTableColumn } from '../../../components/data-table.tsx';
import { EyeIcon, PencilIcon, PlusIcon, TrashIcon } from '../../../components/icons.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { DEFAULT_PAGE_SIZES, Pager } from '../../../components/pager.tsx';
import { notifyError } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/notify.ts';
import { useUrlListState } from '../../../lib/use-url-list-state.ts';
import { useDeleteRole } from '../api/delete-role.ts';
import { useRoles } from '../api/get-roles.ts';
import { RoleFormModal } from '../components/role-form-modal.tsx';

const columns: DataTableColumn<Role>[] = [{ key: 'roleName', header: 'Role Name' }];

/** /admin/roles (SPEC 2 "Roles"): the list, with add, edit and delete reachable from it. */
export function RolesPage() {
  const list = useUrlListState({ pageSizes: DEFAULT_PAGE_SIZES });
  const { data, isPending, isFetching } = useRoles({ currentPage: list.page, pageSize: list.limit });
  const [editing, setEditing] = useState<{ role: Role | null } | null>(null);
  const [deleting, setDeleting] = useState<Role | null>(null);
  const remove = useDeleteRole();

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      const response = await remove.mutateAsync(deleting._id);
      notify.success(response.msg || roleMessages.deleted);
    } catch (error) {
      notifyError(error);
    } finally {
      setDeleting(null);
    }
  };

  return (
    <>
      <PageHeader
        title="Roles"
        actions={
          <button type="button" className="btn btn-primary d-inline-flex align-items-center gap-2" onClick={() => setEditing({ role: null })}>
            <PlusIcon size={16} />
            Add Role
          </button>
        }
      />
      <div className="card shadow-sm">
        <div className="card-body">
          <DataTable
            label="Roles"
            columns={columns}
            rows={data?.roles}
            getRowKey={(role) => role._id}
            emptyText={roleMessages.empty}
            isLoading={isPending || (isFetching && !data)}
            page={list.page}
            limit={list.limit}
            srNoHeader="Sr No."
            actionsHeader="Actions"
            actions={(role) => (
              <>
                <Link to={`/admin/view-role/${role._id}`} className="btn btn-sm btn-outline-primary" aria-label={`View ${role.roleName}`} title="View">
                  <EyeIcon size={16} />
                </Link>
                <button
                  type="button"
                  className="btn btn-sm btn-outline-secondary"
                  aria-label={`Edit ${role.roleName}`}
                  title="Edit"
                  onClick={() => setEditing({ role })}
                >
                  <PencilIcon size={16} />
                </button>
                <button
                  type="button"
                  className="btn btn-sm btn-outline-danger"
                  aria-label={`Delete ${role.roleName}`}
                  title="Delete"
                  onClick={() => setDeleting(role)}
                >
                  <TrashIcon size={16} />
                </button>
              </>
            )}
          />
          <Pager page={list.page} totalPages={data?.totalPages ?? 1} limit={list.limit} onChange={list.changePage} label="Roles pages" />
        </div>
      </div>
      <RoleFormModal show={editing !== null} role={editing?.role} onClose={() => setEditing(null)} />
      <ConfirmModal show={deleting !== null} isPending={remove.isPending} onConfirm={confirmDelete} onCancel={() => setDeleting(null)} />
    </>
  );
}
