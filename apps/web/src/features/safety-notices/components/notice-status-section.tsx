import type { SafetyNotice } from '@app/contract/safety-notices';
import {
  noticeExportHeaders,
  noticeMachineFilterLabels,
  noticeMachineFilters,
  safetyNoticePaths,
  safetyNoticeTexts,
} from '@app/contract/safety-notices-texts';
import { SectionCard } from '#web/components/details-card.tsx';
import { ExportCsvButton } from '#web/components/export-csv-button.tsx';
import { FilterSelect } from '#web/components/filter-select.tsx';
import { LoadError } from '#web/components/load-error.tsx';
import { TableWithPager } from '#web/components/paged-table.tsx';
import { DEFAULT_PAGE_SIZES } from '#web/components/pager.tsx';
import { useUrlFilter } from '#web/lib/use-url-filter.ts';
import { useUrlListState } from '#web/lib/use-url-list-state.ts';
import { useNoticeMachines } from '../api/get-notice-machines.ts';
import { statusColumns } from './notice-columns.tsx';

const exportColumns = Object.keys(noticeExportHeaders);

/**
 * A sent notice per machine (decision 084): notified, acknowledged (by whom, when), without contact,
 * and remedied; the counts of the whole notice above, a filter, and the regulator's CSV.
 */
export function NoticeStatusSection({ notice }: { notice: SafetyNotice }) {
  const list = useUrlListState({ pageSizes: DEFAULT_PAGE_SIZES });
  const [status, setStatus] = useUrlFilter('status', noticeMachineFilters, '');
  const query = useNoticeMachines(
    notice._id,
    { page: list.page, limit: list.limit, status: status || undefined },
    true,
  );
  const { data } = query;
  const counts = data?.counts ?? notice.counts;
  return (
    <SectionCard
      title={safetyNoticeTexts.status}
      actions={
        <ExportCsvButton
          path={safetyNoticePaths.export(encodeURIComponent(notice._id))}
          query={{ status: status || undefined }}
          columns={{ shown: exportColumns, exportable: noticeExportHeaders }}
          expectedRows={data?.total}
          fileName={`safety-notice-${notice.reference}`}
        />
      }
    >
      {counts ? (
        <ul className="list-inline" aria-label="Counts">
          <li className="list-inline-item">Machines: {counts.machines}</li>
          <li className="list-inline-item">Notified: {counts.notified}</li>
          <li className="list-inline-item">Acknowledged: {counts.acknowledged}</li>
          <li className="list-inline-item">No contact: {counts.noContact}</li>
          <li className="list-inline-item">Remedied: {counts.remedied}</li>
        </ul>
      ) : null}
      <div className="mb-3">
        <FilterSelect
          label="Show"
          value={status}
          allLabel="All machines"
          options={noticeMachineFilters.map((value) => ({ value, label: noticeMachineFilterLabels[value] }))}
          onChange={setStatus}
        />
      </div>
      {query.isError && !data ? (
        <LoadError
          error={query.error}
          fallback="The machines of this notice could not be loaded."
          onRetry={() => void query.refetch()}
        />
      ) : (
        <TableWithPager
          label={safetyNoticeTexts.status}
          columns={statusColumns}
          rows={data?.machines}
          getRowKey={(m) => `${m.serialNumber}-${m.machineNumber}`}
          emptyText={safetyNoticeTexts.statusEmpty}
          isLoading={query.isPending || (query.isFetching && !data)}
          list={list}
          totalPages={data?.totalPages}
          total={data?.total}
          noun={['machine', 'machines']}
          pagerLabel="Machine pages"
        />
      )}
    </SectionCard>
  );
}
