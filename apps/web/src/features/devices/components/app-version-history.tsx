import { deviceMessages, type DeviceAppVersion } from '@app/contract/devices';
import type { DataTableColumn } from '#web/components/data-table.tsx';
import { TableWithPager } from '#web/components/paged-table.tsx';
import { DETAIL_PAGE_SIZES } from '#web/components/pager.tsx';
import { formatDateTime } from '#web/lib/format.ts';
import { useListState } from '#web/lib/use-list-state.ts';
import { useDeviceAppVersions } from '../api/get-device-app-versions.ts';

const columns: DataTableColumn<DeviceAppVersion>[] = [
  { key: 'versionName', header: 'Version Name', className: 'text-nowrap' },
  { key: 'versionCode', header: 'Version Code', className: 'text-nowrap' },
  {
    key: 'firstSeenAt',
    header: 'First Seen',
    className: 'text-nowrap',
    render: (v) => formatDateTime(v.firstSeenAt),
  },
];

/** Device Details: each app version the machine's heartbeats reported, newest first (issue 16). */
export function AppVersionHistory({ deviceId }: { deviceId: string }) {
  const list = useListState();
  const { data, isPending } = useDeviceAppVersions({ deviceId, page: list.page, limit: list.limit });
  return (
    <>
      <TableWithPager
        label="App version history"
        columns={columns}
        rows={data?.versions}
        getRowKey={(v) => `${v.versionCode}-${v.firstSeenAt}`}
        emptyText={deviceMessages.appVersionsEmpty}
        isLoading={isPending}
        list={list}
        totalPages={data?.totalPages}
        pageSizeOptions={DETAIL_PAGE_SIZES}
        pagerLabel="App version history pages"
      />
    </>
  );
}
