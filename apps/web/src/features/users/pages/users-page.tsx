import { useState } from 'react';
import { Link } from '#web/components/link.tsx';
import { bulkTexts } from '@app/contract/bulk-texts';
import { userExportColumns, userMessages, type User } from '@app/contract/users';
import { paths } from '#web/lib/paths.ts';
import { ConfirmModal } from '#web/components/confirm-modal.tsx';
import type { DataTableColumn } from '#web/components/data-table.tsx';
import { EyeIcon } from '#web/components/base-icons.tsx';
import { PencilIcon, TrashIcon } from '#web/components/icons.tsx';
import { apiPaths } from '@app/contract/paths';
import { ExportCsvButton } from '#web/components/export-csv-button.tsx';
import { SearchBox } from '#web/components/search-box.tsx';
import { PageHeader } from '#web/components/page-header.tsx';
import { AddButton, PagedTable } from '#web/components/paged-table.tsx';
import { DEFAULT_PAGE_SIZES } from '#web/components/pager.tsx';
import { useRowSelection } from '#web/components/use-row-selection.ts';
import { ListTools } from '#web/components/list-tools.tsx';
import { columnChoicesOf, useListColumns } from '#web/components/use-column-visibility.ts';
import { orNA } from '#web/lib/format.ts';
import { useConfirmDelete } from '#web/lib/use-confirm-delete.ts';
import { useUrlListState } from '#web/lib/use-url-list-state.ts';
import { useDeleteUser } from '../api/delete-user.ts';
import { useUsers } from '../api/get-users.ts';
import { UserBulkDelete } from '../components/user-bulk-delete.tsx';
import { UserFormModal } from '../components/user-form-modal.tsx';

const columns: DataTableColumn<User>[] = [
  // The column that names the row cannot be hidden (decision 057).
  { key: 'userName', header: 'User Name', mandatory: true },
  { key: 'email', header: 'Email', className: 'text-break' },
  {
    key: 'phonenumber',
    header: 'Phone No.',
    className: 'text-nowrap',
    render: (u) => orNA(u.phonenumber ?? u.phone),
  },
  { key: 'role', header: 'Role', render: (u) => orNA(u.role?.roleName) },
];

const choices = columnChoicesOf(columns);

/** /admin/user-management (docs/product.md §2.11 "User Management"). */
export function UsersPage() {
  // The page size the admin last chose is kept on the server (decision 053).
  const list = useUrlListState({ pageSizes: DEFAULT_PAGE_SIZES, listKey: 'users' });
  const search = list.debouncedSearch || undefined;
  const { data, isPending, isFetching } = useUsers(
    { page: list.page, limit: list.limit, search },
    list.ready,
  );
  const [editing, setEditing] = useState<{ user: User | null } | null>(null);
  const deleting = useConfirmDelete<User>(useDeleteUser(), userMessages.deleted);
  // "All matching" is every user the search finds (decision 055); a new search starts a new selection.
  const selection = useRowSelection(search ?? '');
  const shown = useListColumns('users', choices);

  return (
    <>
      <PageHeader
        title="User Management"
        actions={
          <>
            <ExportCsvButton
              path={apiPaths.usersExport}
              query={{ search }}
              columns={{ shown: shown.visible, exportable: userExportColumns }}
              expectedRows={data?.total}
              fileName="users"
            />
            <AddButton onClick={() => setEditing({ user: null })}>Add New User</AddButton>
          </>
        }
      />
      <PagedTable
        toolbar={
          <>
            <div className="d-flex flex-wrap gap-2 mb-3">
              <SearchBox label="Search users" value={list.search} onChange={list.setSearch} />
              <ListTools columns={shown} />
            </div>
            <UserBulkDelete
              selection={selection}
              filters={{ search }}
              pageKeys={data?.users.map((u) => u._id) ?? []}
              total={data?.total}
            />
          </>
        }
        selection={{ ...selection.table, rowLabel: (u) => bulkTexts.selectRow(u.userName) }}
        label="Users"
        columns={columns}
        visibleColumns={shown.visible}
        rows={data?.users}
        getRowKey={(user) => user._id}
        emptyText={userMessages.empty}
        isLoading={isPending || (isFetching && !data)}
        list={list}
        totalPages={data?.totalPages}
        total={data?.total}
        noun={['user', 'users']}
        pagerLabel="Users pages"
        srNoHeader="Sr No."
        actionsHeader="Actions"
        actions={(user) => (
          <>
            <button
              type="button"
              className="btn btn-sm btn-outline-secondary"
              aria-label={`Edit ${user.userName}`}
              title={user.isDeletable ? 'Edit' : userMessages.protectedEdit}
              disabled={!user.isDeletable}
              onClick={() => setEditing({ user })}
            >
              <PencilIcon size={16} />
            </button>
            <Link
              to={paths.viewUser.href({ id: user._id })}
              className="btn btn-sm btn-outline-primary"
              aria-label={`View ${user.userName}`}
              title="View"
            >
              <EyeIcon size={16} />
            </Link>
            <button
              type="button"
              className="btn btn-sm btn-outline-danger"
              aria-label={`Delete ${user.userName}`}
              title="Delete"
              onClick={() => deleting.ask(user)}
            >
              <TrashIcon size={16} />
            </button>
          </>
        )}
      />
      <UserFormModal show={editing !== null} user={editing?.user} onClose={() => setEditing(null)} />
      <ConfirmModal {...deleting.modal} />
    </>
  );
}
