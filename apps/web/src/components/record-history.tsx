import { historyFieldOf } from '@app/contract/record-history-fields';
import { recordHistoryMessages, type HistoryEntry, type HistoryKind } from '@app/contract/record-history';
import { formatDateTime } from '../lib/format.ts';
import { useListState } from '../lib/use-list-state.ts';
import type { DataTableColumn } from './data-table.tsx';
import { SectionCard } from './details-card.tsx';
import { LoadError } from './load-error.tsx';
import { TableWithPager } from './paged-table.tsx';
import { DETAIL_PAGE_SIZES } from './pager.tsx';
import { useRecordHistory } from './record-history-api.ts';
import { listChange, sideText } from './record-history-values.ts';

const m = recordHistoryMessages;

/** Old → new, as a diff: the old value struck through, the new one inserted, each named for a screen reader. */
function Change({ kind, entry }: { kind: HistoryKind; entry: HistoryEntry }) {
  if (entry.secret) return <span>{m.secretChanged}</span>;
  const list = listChange(entry);
  if (list && (list.added.length || list.removed.length))
    return (
      <span className="d-inline-flex flex-column">
        {list.added.length ? (
          <span>
            {m.added}: <ins>{list.added.join(', ')}</ins>
          </span>
        ) : null}
        {list.removed.length ? (
          <span>
            {m.removed}: <del>{list.removed.join(', ')}</del>
          </span>
        ) : null}
      </span>
    );
  return (
    <span className="text-break">
      <span className="visually-hidden">From </span>
      <del>{sideText(kind, entry, 'old')}</del>
      <span aria-hidden="true"> → </span>
      <span className="visually-hidden"> to </span>
      <ins>{sideText(kind, entry, 'new')}</ins>
    </span>
  );
}

const columnsOf = (kind: HistoryKind): DataTableColumn<HistoryEntry>[] => [
  { key: 'at', header: 'When', className: 'text-nowrap', render: (e) => formatDateTime(e.at) },
  { key: 'field', header: 'Field', render: (e) => historyFieldOf(kind, e.field).label },
  { key: 'change', header: 'Change', render: (e) => <Change kind={kind} entry={e} /> },
  {
    key: 'actor',
    header: 'By',
    truncate: true,
    render: (e) => (e.actor ? (e.actor.email ?? e.actor.userId) : m.system),
  },
  { key: 'reason', header: 'Reason', truncate: true, render: (e) => e.reason ?? m.none },
];

/**
 * A record's History section (issue 38 item 1, decision 081): each changed field with its old and
 * new value, who changed it (or the system), when and why, newest first and paged. `path` is the
 * record's history route (recordHistoryPaths); the page shows the section only to an admin who may
 * see the record, which is what the route asks too.
 */
export function RecordHistorySection({ kind, path }: { kind: HistoryKind; path: string }) {
  const list = useListState();
  const { data, isPending, error, refetch } = useRecordHistory({ path, page: list.page, limit: list.limit });
  const masked = data?.history.some((e) => e.masked);
  return (
    <SectionCard title={m.title}>
      {error ? (
        <LoadError error={error} fallback={m.loadFailed} onRetry={() => void refetch()} />
      ) : (
        <>
          {masked ? <p className="small text-body-secondary">{m.masked}</p> : null}
          <TableWithPager
            label="Change history"
            columns={columnsOf(kind)}
            rows={data?.history}
            getRowKey={(e) => e._id}
            emptyText={m.empty}
            isLoading={isPending}
            list={list}
            totalPages={data?.totalPages}
            pageSizeOptions={DETAIL_PAGE_SIZES}
            pagerLabel="Change history pages"
          />
        </>
      )}
    </SectionCard>
  );
}
