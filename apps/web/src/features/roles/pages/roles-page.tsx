import { useState } from 'react';
import { Link } from '#web/components/link.tsx';
import { roleExportColumns, roleMessages, type Role } from '@app/contract/roles';
import { paths } from '#web/lib/paths.ts';
import { apiPaths } from '@app/contract/paths';
import { ConfirmModal } from '#web/components/confirm-modal.tsx';
import { ExportCsvButton } from '#web/components/export-csv-button.tsx';
import type { DataTableColumn } from '#web/components/data-table.tsx';
import { EyeIcon } from '#web/components/base-icons.tsx';
import { PencilIcon, TrashIcon } from '#web/components/icons.tsx';
import { PageHeader } from '#web/components/page-header.tsx';
import { AddButton, PagedTable } from '#web/components/paged-table.tsx';
import { DEFAULT_PAGE_SIZES } from '#web/components/pager.tsx';
import { ListTools } from '#web/components/list-tools.tsx';
import { columnChoicesOf, useListColumns } from '#web/components/use-column-visibility.ts';
import { useConfirmDelete } from '#web/lib/use-confirm-delete.ts';
import { useCan } from '#web/lib/use-session.ts';
import { useUrlListState } from '#web/lib/use-url-list-state.ts';
import { useDeleteRole } from '../api/delete-role.ts';
import { useRoles } from '../api/get-roles.ts';
import { RoleFormModal } from '../components/role-form-modal.tsx';

// The column that names the row cannot be hidden (decision 057).
const columns: DataTableColumn<Role>[] = [{ key: 'roleName', header: 'Role Name', mandatory: true }];
const choices = columnChoicesOf(columns);

/**
 * /admin/roles (docs/product.md §2.10 "Roles"): the list, with add, edit and delete reachable from it
 * for an admin who manages roles; the others only view (decision 047).
 */
export function RolesPage() {
  // The page size the admin last chose is kept on the server (decision 053).
  const list = useUrlListState({ pageSizes: DEFAULT_PAGE_SIZES, listKey: 'roles' });
  const { data, isPending, isFetching } = useRoles(
    { currentPage: list.page, pageSize: list.limit },
    list.ready,
  );
  const [editing, setEditing] = useState<{ role: Role | null } | null>(null);
  const deleting = useConfirmDelete<Role>(useDeleteRole(), roleMessages.deleted);
  const mayManage = useCan('roles.manage');
  const shown = useListColumns('roles', choices);
  // Roles list oldest first, so a new one lands on the last page: turn there to show it.
  const showNewRole = () => {
    const pages = Math.max(1, Math.ceil(((data?.total ?? 0) + 1) / list.limit));
    list.changePage({ page: pages, limit: list.limit });
  };

  return (
    <>
      <PageHeader
        title="Roles"
        actions={
          <>
            <ExportCsvButton
              path={apiPaths.rolesExport}
              query={{}}
              columns={{ shown: shown.visible, exportable: roleExportColumns }}
              expectedRows={data?.total}
              fileName="roles"
            />
            {mayManage ? <AddButton onClick={() => setEditing({ role: null })}>Add Role</AddButton> : null}
          </>
        }
      />
      <PagedTable
        toolbar={
          <div className="d-flex mb-3">
            <ListTools columns={shown} />
          </div>
        }
        label="Roles"
        columns={columns}
        visibleColumns={shown.visible}
        rows={data?.roles}
        getRowKey={(role) => role._id}
        emptyText={roleMessages.empty}
        isLoading={isPending || (isFetching && !data)}
        list={list}
        totalPages={data?.totalPages}
        total={data?.total}
        noun={['role', 'roles']}
        pagerLabel="Roles pages"
        srNoHeader="Sr No."
        actionsHeader="Actions"
        actions={(role) => (
          <>
            <Link
              to={paths.viewRole.href({ id: role._id })}
              className="btn btn-sm btn-outline-primary"
              aria-label={`View ${role.roleName}`}
              title="View"
            >
              <EyeIcon size={16} />
            </Link>
            {mayManage ? (
              <>
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
                  onClick={() => deleting.ask(role)}
                >
                  <TrashIcon size={16} />
                </button>
              </>
            ) : null}
          </>
        )}
      />
      {mayManage ? (
        <>
          <RoleFormModal
            show={editing !== null}
            role={editing?.role}
            onClose={() => setEditing(null)}
            onCreated={showNewRole}
          />
          <ConfirmModal {...deleting.modal} />
        </>
      ) : null}
    </>
  );
}
