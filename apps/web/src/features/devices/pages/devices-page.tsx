import { lazy, Suspense, useState } from 'react';
import { Link } from '#web/components/link.tsx';
import { deviceMessages, deviceSortKeys, type Device, type DeviceSortKey } from '@app/contract/devices';
import { bulkTexts } from '@app/contract/bulk-texts';
import { ColumnSettings } from '#web/components/column-settings.tsx';
import { ExportCsvButton } from '#web/components/export-csv-button.tsx';
import { deviceExportColumns } from '@app/contract/device-export-columns';
import { apiPaths } from '@app/contract/paths';
import { SavedViewsMenu } from '#web/components/saved-views-menu.tsx';
import { columnChoicesOf, useColumnVisibility } from '#web/components/use-column-visibility.ts';
import { useRowSelection } from '#web/components/use-row-selection.ts';
import { MountWhenShown } from '#web/components/mount-when-shown.tsx';
import { paths } from '#web/lib/paths.ts';
import type { DataTableColumn } from '#web/components/data-table.tsx';
import { EyeIcon } from '#web/components/base-icons.tsx';
import { PencilIcon } from '#web/components/icons.tsx';
import { PageHeader } from '#web/components/page-header.tsx';
import { AddButton, PagedTable } from '#web/components/paged-table.tsx';
import { DEFAULT_PAGE_SIZES } from '#web/components/pager.tsx';
import { FiltersFold } from '#web/components/filters-fold.tsx';
import { SearchBox } from '#web/components/search-box.tsx';
import { useUrlFilter } from '#web/lib/use-url-filter.ts';
import { useUrlListState } from '#web/lib/use-url-list-state.ts';
import { useCan } from '#web/lib/use-session.ts';
import { useDevices } from '../api/get-devices.ts';
import { AppVersionText, lastSeenText, OnlineBadge } from '../components/device-check-in.tsx';
import { DeviceFacetSelects, useDeviceFacetFilters } from '../components/device-facet-filters.tsx';
import { DeviceStatusSelect } from '../components/device-status-select.tsx';
import { SubscriptionStatus } from '../components/subscription-status.tsx';
import { LicenceCell } from '../components/licence-badge.tsx';
import { CustomerCell } from '../components/customer-cell.tsx';

const columns: DataTableColumn<Device>[] = [
  {
    key: 'machineNumber',
    header: 'Machine Number',
    sortable: true,
    mandatory: true,
    className: 'text-nowrap',
  },
  { key: 'serialNumber', header: 'Serial Number', sortable: true, mandatory: true, className: 'text-nowrap' },
  { key: 'location', header: 'Location', sortable: true },
  {
    key: 'status',
    header: 'Status',
    sortable: true,
    render: (device) => <DeviceStatusSelect device={device} />,
  },
  {
    key: 'subscriptionStatus',
    header: 'Subscription Status',
    sortable: true,
    render: (device) => <SubscriptionStatus device={device} />,
  },
  // Ours (issue 34): whether the machine is paid for, and until when.
  {
    key: 'licenceState',
    header: 'Licence',
    sortable: true,
    className: 'text-nowrap',
    render: (device) => <LicenceCell device={device} />,
  },
  // Check-ins from the machine's app (issue 13): optional, so the spec's default view is unchanged.
  { key: 'lastSeenAt', header: 'Last Seen', sortable: true, className: 'text-nowrap', render: lastSeenText },
  {
    key: 'online',
    header: 'Online',
    sortable: true,
    // The server knows online only as "seen lately": sorting by last seen puts online machines together.
    sortKey: 'lastSeenAt',
    render: (device) => <OnlineBadge device={device} />,
  },
  {
    key: 'appVersionCode',
    header: 'App Version',
    sortable: true,
    render: (device) => <AppVersionText device={device} />,
  },
  // Ours (issue 39): the customer holding the machine now.
  {
    key: 'customerName',
    header: 'Customer',
    truncate: '12em',
    render: (device) => <CustomerCell device={device} />,
  },
];
/*
 * The add and edit form (react-hook-form with its zod resolver, ~14 kB gzip) is not needed to show the
 * list: it loads when the pointer or focus reaches an Add or Edit button, and is awaited on click.
 */
const loadDeviceForm = () => import('../components/device-form-modal.tsx');
const DeviceFormModal = lazy(() => loadDeviceForm().then((m) => ({ default: m.DeviceFormModal })));
const preloadDeviceForm = () => void loadDeviceForm();

const hiddenByDefault = new Set(['licenceState', 'lastSeenAt', 'online', 'appVersionCode', 'customerName']);
const columnChoices = columnChoicesOf(
  columns.map((c) => ({ ...c, hiddenByDefault: hiddenByDefault.has(c.key) })),
);

/*
 * The selection bar and its bulk actions (decision 055) show only once rows are picked: they load when
 * the pointer or focus reaches a selection box, and are mounted from the first pick on.
 */
const loadBulkActions = () => import('../components/device-bulk-actions.tsx');
const DeviceBulkActions = lazy(() => loadBulkActions().then((m) => ({ default: m.DeviceBulkActions })));
const preloadBulkActions = () => void loadBulkActions();

// The fleet map and Leaflet load only when the Map view opens (decision 052).
const FleetMap = lazy(() => import('../components/fleet-map.tsx'));
const views = ['map'] as const;

/** /admin/device: Device Management (docs/product.md §2.5). Page, size, sort, search and the filters live in the URL. */
export function DevicesPage() {
  // Page size and sort the admin last chose are kept on the server (decision 053).
  const list = useUrlListState({
    pageSizes: DEFAULT_PAGE_SIZES,
    sortKeys: deviceSortKeys,
    listKey: 'devices',
  });

  // ?online=…&status=…&country=…: the dashboard's machine figures link here with ?online.
  const filters = useDeviceFacetFilters();
  // ?view=map shows the same filtered machines on the fleet map.
  const [view, setView] = useUrlFilter('view', views, '');
  const [visible, setVisible] = useColumnVisibility('devices', columnChoices);
  const mayEdit = useCan('devices.edit');
  // Picking machines serves their status (devices.edit, decision 047), a command, a group and a customer.
  const maySend = useCan('commands.send');
  const mayGroup = useCan('groups.manage');
  const mayAssign = useCan('customers.manage');
  const maySelect = mayEdit || maySend || mayGroup || mayAssign;
  const [editing, setEditing] = useState<Device | null>(null);
  const [adding, setAdding] = useState(false);
  const openForm = (device: Device | null) => (device ? setEditing(device) : setAdding(true));
  const formShown = adding || editing !== null;
  // What the list shows, and what "all matching" acts on (decision 055); a change clears the selection.
  const listFilters = { search: list.debouncedSearch || undefined, ...filters.values };
  const selection = useRowSelection(JSON.stringify(listFilters));
  const { data, isPending, isFetching } = useDevices(
    {
      page: list.page,
      limit: list.limit,
      sort: list.sort?.key as DeviceSortKey | undefined,
      direction: list.sort?.direction,
      ...listFilters,
    },
    // The list waits for the kept page size and sort, and is not asked for while the map shows.
    list.ready && view !== 'map',
  );

  const toolbar = (
    <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-3">
      {/* Above the actions: their menus open downward, over the table rather than these. */}
      <div className="w-100">
        <FiltersFold active={Object.values(filters.values).filter((v) => v !== undefined && v !== '').length}>
          <DeviceFacetSelects filters={filters} />
        </FiltersFold>
      </div>
      <SearchBox label="Search devices" value={list.search} onChange={list.setSearch} />
      <div className="d-flex flex-wrap align-items-center gap-2">
        <SavedViewsMenu columns={{ list: 'devices', choices: columnChoices, visible, setVisible }} />
        <ViewSwitch view={view} onChange={setView} />
        {view === 'map' ? null : (
          <ColumnSettings columns={columnChoices} visible={visible} onChange={setVisible} />
        )}
      </div>
    </div>
  );

  return (
    <>
      <PageHeader
        title="Device Management"
        actions={
          <>
            {view === 'map' ? null : (
              <ExportCsvButton
                path={apiPaths.machineExport}
                query={listFilters}
                columns={{ shown: visible, exportable: deviceExportColumns }}
                expectedRows={data?.total}
                fileName="devices"
              />
            )}
            {mayEdit ? (
              <AddButton onClick={() => openForm(null)} onIntent={preloadDeviceForm}>
                Add New Device
              </AddButton>
            ) : null}
          </>
        }
      />
      {view === 'map' ? (
        <>
          {toolbar}
          <Suspense fallback={<p role="status">Loading the map…</p>}>
            <FleetMap filters={listFilters} />
          </Suspense>
        </>
      ) : (
        <PagedTable
          toolbar={
            <>
              {toolbar}
              {maySelect ? (
                <MountWhenShown show={!selection.isEmpty}>
                  <DeviceBulkActions
                    selection={selection}
                    filters={listFilters}
                    pageKeys={data?.allDevices.map((d) => d._id) ?? []}
                    total={data?.total}
                    totalIsEstimate={data?.totalIsEstimate}
                  />
                </MountWhenShown>
              ) : null}
            </>
          }
          selection={
            maySelect
              ? {
                  ...selection.table,
                  rowLabel: (d) => bulkTexts.selectRow(d.machineNumber),
                  onIntent: preloadBulkActions,
                }
              : undefined
          }
          label="Devices"
          columns={columns}
          rows={data?.allDevices}
          getRowKey={(device) => device._id}
          emptyText={deviceMessages.empty}
          isLoading={isPending || (isFetching && !data)}
          list={list}
          totalPages={data?.totalPages}
          total={data?.total}
          approximate={data?.totalIsEstimate}
          noun={['machine', 'machines']}
          pagerLabel="Devices pages"
          visibleColumns={visible}
          sort={list.sort}
          onSort={list.toggleSort}
          actions={(device) => (
            <>
              {mayEdit ? (
                <button
                  type="button"
                  className="btn btn-sm btn-outline-primary"
                  aria-label={`Edit ${device.machineNumber}`}
                  title="Edit"
                  onClick={() => openForm(device)}
                  onPointerEnter={preloadDeviceForm}
                  onFocus={preloadDeviceForm}
                >
                  <PencilIcon size={16} />
                </button>
              ) : null}
              <Link
                to={paths.deviceDetails.href({ id: device._id })}
                state={{ deviceId: device._id }}
                className="btn btn-sm btn-outline-secondary"
                aria-label={`View ${device.machineNumber}`}
                title="View"
              >
                <EyeIcon size={16} />
              </Link>
            </>
          )}
        />
      )}
      <MountWhenShown show={formShown}>
        <DeviceFormModal
          show={formShown}
          device={editing}
          onClose={() => (setAdding(false), setEditing(null))}
        />
      </MountWhenShown>
    </>
  );
}

/** List or Map: two toggle buttons, the pressed one showing which view is on. */
function ViewSwitch({ view, onChange }: { view: 'map' | ''; onChange: (next: 'map' | '') => void }) {
  return (
    <div className="btn-group" role="group" aria-label="View">
      {(['', 'map'] as const).map((value) => (
        <button
          key={value || 'list'}
          type="button"
          className={`btn ${view === value ? 'btn-primary' : 'btn-outline-primary'}`}
          aria-pressed={view === value}
          onClick={() => onChange(value)}
        >
          {value === 'map' ? 'Map' : 'List'}
        </button>
      ))}
    </div>
  );
}
