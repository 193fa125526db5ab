import { revealMessages, type AccessHistoryEntry } from '@app/contract/masking';
import type { DataTableColumn } from '#web/components/data-table.tsx';
import { TableWithPager } from '#web/components/paged-table.tsx';
import { DETAIL_PAGE_SIZES } from '#web/components/pager.tsx';
import { formatDateTime } from '#web/lib/format.ts';
import { useListState } from '#web/lib/use-list-state.ts';
import { useAccessHistory } from '../api/get-access-history.ts';
import type { RevealKind } from '../api/reveal-contact.ts';

const columns: DataTableColumn<AccessHistoryEntry>[] = [
  { key: 'at', header: 'When', className: 'text-nowrap', render: (e) => formatDateTime(e.at) },
  { key: 'userEmail', header: 'Who' },
  { key: 'location', header: 'From' },
  { key: 'action', header: 'Action' },
  { key: 'detail', header: 'Fields and reason' },
];

/** Who viewed this record or revealed its contact data, and when and from where (decision 045). */
export function AccessHistoryTable({ kind, id }: { kind: RevealKind; id: string }) {
  const list = useListState();
  const { data, isPending } = useAccessHistory({ kind, id, page: list.page, limit: list.limit });
  return (
    <TableWithPager
      label="Access history"
      columns={columns}
      rows={data?.history}
      getRowKey={(e) => e._id}
      emptyText={revealMessages.accessHistoryEmpty}
      isLoading={isPending}
      list={list}
      totalPages={data?.totalPages}
      pageSizeOptions={DETAIL_PAGE_SIZES}
      pagerLabel="Access history pages"
    />
  );
}
