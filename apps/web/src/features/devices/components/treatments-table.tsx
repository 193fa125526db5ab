import { useId, useState, type ReactNode } from 'react';
import { apiPaths } from '@app/contract/paths';
import { treatmentExportColumns, type Treatment } from '@app/contract/treatments';
import type { DataTableColumn } from '#web/components/data-table.tsx';
import { TableWithPager } from '#web/components/paged-table.tsx';
import { EyeIcon } from '#web/components/base-icons.tsx';
import { SearchIcon } from '#web/components/icons.tsx';
import { DETAIL_PAGE_SIZES } from '#web/components/pager.tsx';
import { formatDateTime, orNA } from '#web/lib/format.ts';
import { useListState } from '#web/lib/use-list-state.ts';
import { useUrlListState } from '#web/lib/use-url-list-state.ts';
import { ListTools } from '#web/components/list-tools.tsx';
import { columnChoicesOf, useListColumns } from '#web/components/use-column-visibility.ts';
import { useTreatments } from '../api/get-treatments.ts';
import { HealthExportButton } from './health-export-button.tsx';
import { TreatmentDetailsModal } from './treatment-details-modal.tsx';

const columns: DataTableColumn<Treatment>[] = [
  // The column that names the row cannot be hidden (decision 057).
  { key: 'userName', header: 'User Name', mandatory: true },
  { key: 'treatmentDevice', header: 'Treatment Device' },
  { key: 'treatmentPlan', header: 'Treatment Plan' },
  {
    key: 'treatmentStartTime',
    header: 'Start Time',
    className: 'text-nowrap',
    render: (t) => formatDateTime(t.treatmentStartTime),
  },
  {
    key: 'treatmentDuration',
    header: 'Duration',
    className: 'text-nowrap',
    render: (t) => (t.treatmentDuration === null ? orNA(null) : `${t.treatmentDuration} min`),
  },
  {
    key: 'totalEnergyOutput',
    header: 'Total Energy Output',
    className: 'text-nowrap',
    render: (t) => (t.totalEnergyOutput === null ? orNA(null) : `${t.totalEnergyOutput} J`),
  },
];

const choices = columnChoicesOf(columns);

export type TreatmentsTableProps = {
  /** Filters: a device, a doctor, a patient (docs/product.md §4.7). */
  machineNumber?: string;
  doctorId?: string;
  patientId?: string;
  /** UTC days, both included, of the treatments' start (the dashboard's treatments figures). */
  from?: string;
  to?: string;
  /** The facets (Treatment Records): exactly this plan and this treatment device. */
  treatmentPlan?: string;
  treatmentDevice?: string;
  /** The list's filter controls, beside the search; given the debounced search their counts follow. */
  filters?: (search: string | undefined) => ReactNode;
  emptyText: string;
  label: string;
  searchable?: boolean;
  /**
   * The list's page, size and search live in the URL, with a Views menu (the Treatment Records
   * page). On a record's page, which holds several lists, they are the table's own.
   */
  inUrl?: boolean;
};

/** Treatment records with a details modal; pager 10/25 (docs/product.md §9). */
export function TreatmentsTable({
  machineNumber,
  doctorId,
  patientId,
  from,
  to,
  treatmentPlan,
  treatmentDevice,
  filters: filterControls,
  emptyText,
  label,
  searchable = false,
  inUrl = false,
}: TreatmentsTableProps) {
  // Both kept on the server as one list, 'treatments' (decision 053); one of them is used.
  const urlList = useUrlListState({ pageSizes: DETAIL_PAGE_SIZES, listKey: 'treatments' });
  const ownList = useListState({ pageSizes: DETAIL_PAGE_SIZES, listKey: 'treatments' });
  const list = inUrl ? urlList : ownList;
  const shown = useListColumns('treatments', choices);
  const searchId = useId();
  const [openId, setOpenId] = useState<string | null>(null);
  const search = list.debouncedSearch || undefined;
  const filters = { machineNumber, doctorId, patientId, from, to, treatmentPlan, treatmentDevice, search };
  const { data, isPending } = useTreatments({ page: list.page, limit: list.limit, ...filters }, list.ready);

  return (
    <>
      <div className="d-flex flex-wrap align-items-start gap-2">
        {searchable ? (
          <div className="input-group mb-3" style={{ maxWidth: 360 }}>
            <span className="input-group-text" aria-hidden="true">
              <SearchIcon size={16} />
            </span>
            <label htmlFor={searchId} className="visually-hidden">
              Search treatments
            </label>
            <input
              id={searchId}
              type="search"
              className="form-control"
              placeholder="Search"
              value={list.search}
              onChange={(e) => list.setSearch(e.target.value)}
            />
          </div>
        ) : null}
        {filterControls ? <div className="mb-3">{filterControls(search)}</div> : null}
        <div className="mb-3 ms-auto d-flex flex-wrap align-items-center gap-2">
          <ListTools columns={shown} views={inUrl} />
          <HealthExportButton
            path={apiPaths.treatmentsExport}
            query={filters}
            columns={{ shown: shown.visible, exportable: treatmentExportColumns }}
            expectedRows={data?.total}
            fileName="treatments"
            masked="patient names"
          />
        </div>
      </div>
      <TableWithPager
        label={label}
        columns={columns}
        visibleColumns={shown.visible}
        rows={data?.data}
        getRowKey={(t) => t._id}
        emptyText={emptyText}
        isLoading={isPending}
        list={list}
        actions={(t) => (
          <button
            type="button"
            className="btn btn-sm btn-outline-secondary"
            aria-label={`View treatment of ${t.userName}`}
            title="View"
            onClick={() => setOpenId(t._id)}
          >
            <EyeIcon size={16} />
          </button>
        )}
        totalPages={data?.total_pages}
        total={data?.total}
        noun={['treatment record', 'treatment records']}
        pageSizeOptions={DETAIL_PAGE_SIZES}
        pagerLabel={`${label} pages`}
      />
      <TreatmentDetailsModal treatmentId={openId} onClose={() => setOpenId(null)} />
    </>
  );
}
