import { useState } from 'react';
import { groupMessages, type Group } from '@app/contract/groups';
import { ConfirmModal } from '#web/components/confirm-modal.tsx';
import { LoadError } from '#web/components/load-error.tsx';
import { PageHeader } from '#web/components/page-header.tsx';
import { AddButton, TableWithPager } from '#web/components/paged-table.tsx';
import { DEFAULT_PAGE_SIZES } from '#web/components/pager.tsx';
import { SearchBox } from '#web/components/search-box.tsx';
import { useConfirmDelete } from '#web/lib/use-confirm-delete.ts';
import { useCan } from '#web/lib/use-session.ts';
import { useUrlListState } from '#web/lib/use-url-list-state.ts';
import { useDeleteGroup } from '../api/delete-group.ts';
import { useGroups } from '../api/get-groups.ts';
import { AddGroupModal } from '../components/add-group-modal.tsx';
import { groupColumns } from '../components/group-columns.tsx';
import { GroupSettingsModal } from '../components/group-settings-modal.tsx';
import { GroupWindowModal } from '../components/group-window-modal.tsx';
import { RenameGroupModal } from '../components/rename-group-modal.tsx';

type Editing = { group: Group; form: 'rename' | 'window' | 'settings' };

/**
 * /admin/groups (issue 37 item 1, decision 077): the machine groups, searched by name in the URL.
 * Anyone who sees the machines sees them; groups.manage adds, renames and deletes them and sets their
 * maintenance window and settings. Machines join a static group from Device Management's bulk actions.
 */
export function GroupsPage() {
  const list = useUrlListState({ pageSizes: DEFAULT_PAGE_SIZES });
  const query = useGroups({ page: list.page, limit: list.limit, search: list.debouncedSearch || undefined });
  const { data } = query;
  const mayManage = useCan('groups.manage');
  const [adding, setAdding] = useState(false);
  const [fleet, setFleet] = useState(false);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [asked, setAsked] = useState<Group | null>(null);
  const deleting = useConfirmDelete<Group>(useDeleteGroup(), groupMessages.deleted);
  const close = () => setEditing(null);
  const formOf = (form: Editing['form']) => (editing?.form === form ? editing.group : null);

  const actions = (group: Group) => {
    const button = (text: string, label: string, onClick: () => void, danger = false) => (
      <button
        type="button"
        className={`btn btn-sm ${danger ? 'btn-outline-danger' : 'btn-outline-secondary'}`}
        aria-label={`${label} ${group.name}`}
        onClick={onClick}
      >
        {text}
      </button>
    );
    return (
      <span className="d-inline-flex flex-wrap gap-1">
        {button('Rename', 'Rename group', () => setEditing({ group, form: 'rename' }))}
        {button('Window', 'Maintenance window of group', () => setEditing({ group, form: 'window' }))}
        {button('Settings', 'Settings of group', () => setEditing({ group, form: 'settings' }))}
        {button(
          'Delete',
          'Delete group',
          () => {
            setAsked(group);
            deleting.ask(group);
          },
          true,
        )}
      </span>
    );
  };

  return (
    <>
      <PageHeader
        title="Groups"
        actions={
          mayManage ? (
            <>
              <button type="button" className="btn btn-outline-primary" onClick={() => setFleet(true)}>
                Fleet default settings
              </button>
              <AddButton onClick={() => setAdding(true)}>Add group</AddButton>
            </>
          ) : null
        }
      />
      <div className="card shadow-sm">
        <div className="card-body">
          <div className="mb-3">
            <SearchBox label="Search groups by name" value={list.search} onChange={list.setSearch} />
          </div>
          {query.isError && !data ? (
            <LoadError
              error={query.error}
              fallback="The groups could not be loaded."
              onRetry={() => void query.refetch()}
            />
          ) : (
            <TableWithPager
              label="Groups"
              columns={groupColumns}
              rows={data?.groups}
              getRowKey={(group) => group._id}
              emptyText={list.debouncedSearch ? 'No groups match the search.' : 'No groups yet.'}
              isLoading={query.isPending || (query.isFetching && !data)}
              list={list}
              totalPages={data?.totalPages}
              total={data?.total}
              noun={['group', 'groups']}
              pagerLabel="Groups pages"
              actions={mayManage ? actions : undefined}
              actionsHeader="Actions"
            />
          )}
        </div>
      </div>
      {mayManage ? (
        <>
          {adding ? <AddGroupModal show onClose={() => setAdding(false)} /> : null}
          <RenameGroupModal group={formOf('rename')} onClose={close} />
          <GroupWindowModal group={formOf('window')} onClose={close} />
          <GroupSettingsModal
            level={fleet ? { fleet: true } : formOf('settings') ? { group: formOf('settings')! } : null}
            onClose={() => (close(), setFleet(false))}
          />
          <ConfirmModal
            {...deleting.modal}
            title="Delete group"
            text={`Delete the group ${asked?.name ?? ''}? Its machines stay; the maintenance window and settings it gave them are taken off.`}
            confirmText="Delete"
            cancelText="Cancel"
          />
        </>
      ) : null}
    </>
  );
}
