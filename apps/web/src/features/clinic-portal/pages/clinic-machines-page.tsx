import { clinicMachineSortKeys, clinicPortalTexts as texts } from '@app/contract/clinic-portal-texts';
import type { ClinicMachineSortKey } from '@app/contract/clinic-portal-texts';
import { LoadError } from '#web/components/load-error.tsx';
import { PageHeader } from '#web/components/page-header.tsx';
import { PagedTable } from '#web/components/paged-table.tsx';
import { DEFAULT_PAGE_SIZES } from '#web/components/pager.tsx';
import { SearchBox } from '#web/components/search-box.tsx';
import { useUrlListState } from '#web/lib/use-url-list-state.ts';
import { useClinicMachines } from '../api/get-clinic-machines.ts';
import { clinicMachineColumns } from '../components/machine-columns.tsx';

/**
 * /clinic/machines (issue 39 item 5): the machines the clinic holds now, their status, last call and
 * licence, searched, sorted and paged in the URL. The clinic's page sizes are not kept on the server
 * (the console's list preferences are the admins').
 */
export function ClinicMachinesPage() {
  const list = useUrlListState({ pageSizes: DEFAULT_PAGE_SIZES, sortKeys: clinicMachineSortKeys });
  const search = list.debouncedSearch || undefined;
  const query = useClinicMachines({
    page: list.page,
    limit: list.limit,
    sort: list.sort?.key as ClinicMachineSortKey | undefined,
    direction: list.sort?.direction,
    search,
  });
  const { data } = query;
  return (
    <>
      <PageHeader title={texts.machinesTitle} />
      {query.isError && !data ? (
        <LoadError
          error={query.error}
          fallback="The machines could not be loaded."
          onRetry={() => void query.refetch()}
        />
      ) : (
        <PagedTable
          toolbar={
            <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
              <SearchBox label="Search machines" value={list.search} onChange={list.setSearch} />
            </div>
          }
          label="Machines"
          columns={clinicMachineColumns}
          rows={data?.machines}
          getRowKey={(m) => m._id}
          emptyText={search ? texts.machinesNoMatch : texts.machinesEmpty}
          isLoading={query.isPending || (query.isFetching && !data)}
          list={list}
          totalPages={data?.totalPages}
          total={data?.total}
          noun={['machine', 'machines']}
          pagerLabel="Machines pages"
          sort={list.sort}
          onSort={list.toggleSort}
        />
      )}
    </>
  );
}
