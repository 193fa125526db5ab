import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Assignment, AssignmentList } from '@app/contract/machine-assignments';
import { apiClient } from '../lib/api-client.ts';
import { formatDateTime } from '../lib/format.ts';
import { paths } from '../lib/paths.ts';
import { useListState } from '../lib/use-list-state.ts';
import type { DataTableColumn } from './data-table.tsx';
import { Link } from './link.tsx';
import { LoadError } from './load-error.tsx';
import { TableWithPager } from './paged-table.tsx';
import { DETAIL_PAGE_SIZES } from './pager.tsx';
import { StatusBadge } from './status-badge.tsx';

/*
 * Who held a machine when (issue 39 item 2, decision 087): a machine's periods on Device Details, a
 * customer's on its page. Shared, so it lives here, not in either feature; its answers sit under the
 * key every assignment invalidates (assignmentKeys.all).
 */
export const assignmentKeys = ['machine-assignments'] as const;

const holder: DataTableColumn<Assignment> = {
  key: 'customerName',
  header: 'Customer',
  render: (a) => <Link to={paths.viewCustomer.href({ id: a.customerId })}>{a.customerName}</Link>,
};
const machine: DataTableColumn<Assignment> = {
  key: 'machineNumber',
  header: 'Machine',
  className: 'text-nowrap',
  render: (a) => <Link to={paths.deviceDetails.href({ id: a.deviceId })}>{a.machineNumber}</Link>,
};
const periodColumns: DataTableColumn<Assignment>[] = [
  { key: 'from', header: 'From', className: 'text-nowrap', render: (a) => formatDateTime(a.from) },
  {
    key: 'until',
    header: 'Until',
    className: 'text-nowrap',
    render: (a) => (a.until ? formatDateTime(a.until) : <StatusBadge label="Holds it now" tone="success" />),
  },
  { key: 'reason', header: 'Reason', truncate: true, render: (a) => a.reason || '—' },
  { key: 'endReason', header: 'Ended because', truncate: true, render: (a) => a.endReason || '—' },
  { key: 'assignedBy', header: 'Assigned by', truncate: true },
];

export type AssignmentHistoryProps = {
  /** The machine's or the customer's assignments route. */
  path: string;
  /** What each row names: the customer (on a machine's page) or the machine (on a customer's). */
  show: 'customer' | 'machine';
  label: string;
  emptyText: string;
};

/** The periods, newest first, paged; its own error with Try again. */
export function AssignmentHistory({ path, show, label, emptyText }: AssignmentHistoryProps) {
  const list = useListState();
  const query = useQuery({
    queryKey: [...assignmentKeys, path, list.page, list.limit],
    queryFn: async ({ signal }) =>
      (
        await apiClient.getList<AssignmentList>(path, {
          query: { page: list.page, limit: list.limit },
          signal,
        })
      ).data,
    placeholderData: keepPreviousData,
    meta: { silentError: true },
  });
  if (query.isError && !query.data)
    return (
      <LoadError
        error={query.error}
        fallback="The assignment history could not be loaded."
        onRetry={() => void query.refetch()}
      />
    );
  return (
    <TableWithPager
      label={label}
      columns={[show === 'customer' ? holder : machine, ...periodColumns]}
      rows={query.data?.assignments}
      getRowKey={(a) => a._id}
      emptyText={emptyText}
      isLoading={query.isPending}
      list={list}
      totalPages={query.data?.totalPages}
      total={query.data?.total}
      noun={['period', 'periods']}
      pageSizeOptions={DETAIL_PAGE_SIZES}
      pagerLabel={`${label} pages`}
    />
  );
}
