import {
  erasureStateLabels,
  erasureStates,
  erasureTexts,
  type ErasureState,
} from '@app/contract/erasure-texts';
import { LoadError } from '#web/components/load-error.tsx';
import { PageHeader } from '#web/components/page-header.tsx';
import { TableWithPager } from '#web/components/paged-table.tsx';
import { DEFAULT_PAGE_SIZES } from '#web/components/pager.tsx';
import { Tabs } from '#web/components/tabs.tsx';
import { useUrlFilter } from '#web/lib/use-url-filter.ts';
import { useUrlListState } from '#web/lib/use-url-list-state.ts';
import { useErasureRequests } from '../api/get-erasure-requests.ts';
import { erasureColumns } from '../components/erasure-columns.tsx';

/**
 * /admin/erasure-requests (decision 085): patients' erasure requests by state, newest first. A request
 * is recorded from the patient's page and decided on its own page. The tab and page live in the URL.
 */
export function ErasureRequestsPage() {
  const list = useUrlListState({ pageSizes: DEFAULT_PAGE_SIZES });
  const [state, setState] = useUrlFilter('state', erasureStates, 'open');
  const current: ErasureState = state || 'open';
  const query = useErasureRequests({ page: list.page, limit: list.limit, state: current });
  const { data } = query;

  const table = () =>
    query.isError && !data ? (
      <LoadError
        error={query.error}
        fallback="The erasure requests could not be loaded."
        onRetry={() => void query.refetch()}
      />
    ) : (
      <TableWithPager
        label={erasureStateLabels[current]}
        columns={erasureColumns(current)}
        rows={data?.requests}
        getRowKey={(r) => r._id}
        emptyText={erasureTexts.empty(current)}
        isLoading={query.isPending || (query.isFetching && !data)}
        list={list}
        totalPages={data?.totalPages}
        total={data?.total}
        noun={['erasure request', 'erasure requests']}
        pagerLabel="Erasure request pages"
      />
    );

  return (
    <>
      <PageHeader title={erasureTexts.title} />
      <p>{erasureTexts.intro}</p>
      <div className="card shadow-sm">
        <div className="card-body">
          <Tabs
            label="Erasure requests"
            activeId={current}
            onChange={(id) => setState(id as ErasureState)}
            tabs={erasureStates.map((id) => ({ id, label: erasureStateLabels[id], render: table }))}
          />
        </div>
      </div>
    </>
  );
}
