import { clinicPortalTexts as texts } from '@app/contract/clinic-portal-texts';
import { activityColumns } from '#web/components/activity-columns.tsx';
import { LoadError } from '#web/components/load-error.tsx';
import { PageHeader } from '#web/components/page-header.tsx';
import { PagedTable } from '#web/components/paged-table.tsx';
import { DEFAULT_PAGE_SIZES } from '#web/components/pager.tsx';
import { useUrlListState } from '#web/lib/use-url-list-state.ts';
import { useClinicActivity } from '../api/get-activity.ts';

/**
 * /clinic/activity (issue 39 item 6): the manager's own clinic's activity, newest first, paged in the
 * URL: its users' writes and reads of patient data, its machines' rows, and what the supplier did
 * with its records (named as the supplier). Staff get the API's refusal in the error state.
 */
export function ClinicActivityPage() {
  const list = useUrlListState({ pageSizes: DEFAULT_PAGE_SIZES });
  const query = useClinicActivity({ page: list.page, limit: list.limit });
  const { data } = query;
  return (
    <>
      <PageHeader title={texts.activityTitle} />
      {query.isError && !data ? (
        <LoadError
          error={query.error}
          fallback="The activity could not be loaded."
          onRetry={() => void query.refetch()}
        />
      ) : (
        <PagedTable
          label="Clinic activity"
          columns={activityColumns}
          rows={data?.activity}
          getRowKey={(a) => a._id}
          emptyText={texts.activityEmpty}
          isLoading={query.isPending || (query.isFetching && !data)}
          list={list}
          totalPages={data?.totalPages}
          total={data?.total}
          noun={['entry', 'entries']}
          pagerLabel="Activity pages"
        />
      )}
    </>
  );
}
