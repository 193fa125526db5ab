import { useState } from 'react';
import {
  appUpdateExportColumns,
  appUpdateMessages,
  updateTypeLabel,
  type AppUpdateListItem,
} from '@app/contract/app-updates';
import { apiPaths } from '@app/contract/paths';
import type { DataTableColumn } from '#web/components/data-table.tsx';
import { DownloadIcon } from '#web/components/icons.tsx';
import { PackageName } from '#web/components/package-name.tsx';
import { ExportCsvButton } from '#web/components/export-csv-button.tsx';
import { PageHeader } from '#web/components/page-header.tsx';
import { AddButton, PagedTable } from '#web/components/paged-table.tsx';
import { DEFAULT_PAGE_SIZES } from '#web/components/pager.tsx';
import { ListTools } from '#web/components/list-tools.tsx';
import { columnChoicesOf, useListColumns } from '#web/components/use-column-visibility.ts';
import { formatDateTime } from '#web/lib/format.ts';
import { useUrlListState } from '#web/lib/use-url-list-state.ts';
import { useCan } from '#web/lib/use-session.ts';
import { useAppUpdates } from '../api/get-app-updates.ts';
import { AppUpdateFormModal } from '../components/app-update-form-modal.tsx';
import { useRolloutActions } from '../components/rollout-actions.tsx';
import { RolloutProgress } from '../components/rollout-progress.tsx';

const columns: DataTableColumn<AppUpdateListItem>[] = [
  { key: 'appName', header: 'App Name', render: (u) => <PackageName name={u.appName} /> },
  { key: 'versionCode', header: 'Version Code', className: 'text-nowrap' },
  // The column that names the row cannot be hidden (decision 057).
  { key: 'versionName', header: 'Version Name', className: 'text-nowrap', mandatory: true },
  // Off at first, so the list fits a 1280 px window; the Columns menu offers it (issue 35).
  {
    key: 'updateType',
    header: 'Update Type',
    render: (u) => updateTypeLabel(u.updateType),
    hiddenByDefault: true,
  },
  { key: 'remark', header: 'Remark', truncate: '9em' },
  // How many machines last reported this versionCode in their heartbeat (issue 16).
  { key: 'deviceCount', header: 'Machines Running', className: 'text-nowrap text-end' },
  // The staged rollout and its progress from the machines' check-ins (decision 051).
  { key: 'rolloutPercent', header: 'Rollout', render: (u) => <RolloutProgress release={u} /> },
  { key: 'createdAt', header: 'Date', render: (u) => formatDateTime(u.createdAt) },
  {
    key: 'apkUrl',
    header: 'APK',
    className: 'text-nowrap',
    // A withdrawn release is offered to no machine, and no longer to the admin either (issue 35).
    // An icon, named for the release, keeps the column narrow.
    render: (u) =>
      u.rolloutState === 'withdrawn' ? (
        <span className="text-body-secondary" title="Withdrawn">
          <span aria-hidden="true">–</span>
          <span className="visually-hidden">Withdrawn</span>
        </span>
      ) : (
        <a
          href={u.apkUrl}
          download={u.fileName}
          className="btn btn-sm btn-outline-secondary"
          aria-label={`Download ${u.appName} ${u.versionName}`}
          title="Download"
        >
          <DownloadIcon size={16} />
        </a>
      ),
  },
];

const choices = columnChoicesOf(columns);

/**
 * /admin/app-update: App Update (docs/product.md §2.14): the list of app updates and the Add App Update
 * modal, for an admin whose role carries app-updates.publish (decision 047).
 */
export function AppUpdatesPage() {
  // The page size the admin last chose is kept on the server (decision 053).
  const list = useUrlListState({ pageSizes: DEFAULT_PAGE_SIZES, listKey: 'app-updates' });
  const mayPublish = useCan('app-updates.publish');
  const [adding, setAdding] = useState(false);
  const { data, isPending, isFetching } = useAppUpdates({ page: list.page, limit: list.limit }, list.ready);
  const rollout = useRolloutActions();
  const chosen = useListColumns('app-updates', choices);

  return (
    <>
      <PageHeader
        title="App Update"
        actions={
          <>
            <ExportCsvButton
              path={apiPaths.systemUpdatesExport}
              query={{}}
              columns={{ shown: chosen.visible, exportable: appUpdateExportColumns }}
              expectedRows={data?.total}
              fileName="app-updates"
            />
            {mayPublish ? <AddButton onClick={() => setAdding(true)}>Add App Update</AddButton> : null}
          </>
        }
      />
      <PagedTable
        toolbar={
          <div className="d-flex mb-3">
            <ListTools columns={chosen} />
          </div>
        }
        label="App updates"
        columns={columns}
        visibleColumns={chosen.visible}
        rows={data?.allSystems}
        getRowKey={(u) => u._id}
        emptyText={appUpdateMessages.empty}
        isLoading={isPending || (isFetching && !data)}
        list={list}
        // Not a choice: the table's own last column, always in view (DataTable's actions).
        actions={mayPublish ? rollout.buttons : undefined}
        actionsHeader="Actions"
        totalPages={data?.totalPages}
        total={data?.total}
        noun={['release', 'releases']}
        pagerLabel="App update pages"
      />
      {adding ? <AppUpdateFormModal show onClose={() => setAdding(false)} /> : null}
      {rollout.modal}
    </>
  );
}
