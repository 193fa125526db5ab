import { useState } from 'react';
import { logMessages, logPageSizes, type AccessLog, type ErrorLog } from '@app/contract/logs';
import { apiPaths } from '@app/contract/paths';
import { formatDateTime, orNA } from '../lib/format.ts';
import { useDebouncedValue } from '../lib/use-debounced-value.ts';
import { DataTable, type DataTableColumn } from './data-table.tsx';
import { LogWords } from './log-words.tsx';
import { useLogs, type LogKind } from './logs-api.ts';
import { Pager } from './pager.tsx';
import { DateRangeFilter } from './date-range-filter.tsx';
import { ExportCsvButton } from './export-csv-button.tsx';
import { SearchBox } from './search-box.tsx';
import { Tabs } from './tabs.tsx';
import { useUrlFilters } from '../lib/use-url-filters.ts';

const dateRangeNames = ['from', 'to'] as const;

export type LogsTabsProps = {
  /** Only this user's rows (a doctor, patient, technician or admin). */
  userId?: string;
  /** Only this device's rows. */
  machineNumber?: string;
};

const who = (log: AccessLog | ErrorLog) => orNA(log.userEmail ?? log.user?.email ?? log.user?.userId);

const accessColumns: DataTableColumn<AccessLog>[] = [
  { key: 'resource', header: 'Resource', className: 'text-break' },
  { key: 'words', header: 'What Happened', className: 'text-break', render: (log) => <LogWords log={log} /> },
  { key: 'location', header: 'Location', className: 'text-nowrap' },
  { key: 'userEmail', header: 'User', render: who },
  { key: 'time', header: 'Time', className: 'text-nowrap', render: (log) => formatDateTime(log.time) },
];

const errorColumns: DataTableColumn<ErrorLog>[] = [
  { key: 'resource', header: 'Resource', className: 'text-break' },
  { key: 'functionName', header: 'Function Name' },
  { key: 'message', header: 'Message' },
  { key: 'userEmail', header: 'User', render: who },
  { key: 'utcTime', header: 'Time', className: 'text-nowrap', render: (log) => formatDateTime(log.utcTime) },
];

type ListProps = LogsTabsProps & {
  kind: LogKind;
  search: string;
  from?: string;
  to?: string;
  limit: number;
  onLimitChange: (limit: number) => void;
};

/**
 * One log list with its own pager. Next continues from the last row shown (the server's cursor),
 * so paging stays fast however deep it goes; Prev uses the cursor remembered for that page.
 */
function LogsList({ kind, search, from, to, userId, machineNumber, limit, onLimitChange }: ListProps) {
  const [page, setPage] = useState(1);
  const [cursors, setCursors] = useState<Record<number, string>>({});
  const { data, isPending, isFetching } = useLogs({
    kind,
    page,
    limit,
    search: search || undefined,
    from,
    to,
    userId,
    machineNumber,
    after: cursors[page],
  });
  const label = kind === 'access' ? 'Access logs' : 'Error logs';

  const changePage = (next: { page: number; limit: number }) => {
    if (next.limit !== limit) {
      setCursors({});
      onLimitChange(next.limit);
      setPage(1);
      return;
    }
    const cursor = data?.nextCursor;
    if (next.page === page + 1 && cursor) setCursors((known) => ({ ...known, [next.page]: cursor }));
    setPage(next.page);
  };

  return (
    <>
      <div className="d-flex justify-content-end mb-2">
        <ExportCsvButton
          path={kind === 'access' ? apiPaths.accessLogsExport : apiPaths.errorLogsExport}
          query={{ search: search || undefined, from, to, userId, machineNumber }}
          expectedRows={data?.total}
          fileName={kind === 'access' ? 'access-logs' : 'error-logs'}
        />
      </div>
      {kind === 'access' ? (
        <DataTable
          label={label}
          columns={accessColumns}
          rows={(data?.logs as AccessLog[] | undefined) ?? null}
          getRowKey={(log) => log._id}
          emptyText={logMessages.accessEmpty}
          isLoading={isPending || (isFetching && !data)}
          page={page}
          limit={limit}
        />
      ) : (
        <DataTable
          label={label}
          columns={errorColumns}
          rows={(data?.logs as ErrorLog[] | undefined) ?? null}
          getRowKey={(log) => log._id}
          emptyText={logMessages.errorEmpty}
          isLoading={isPending || (isFetching && !data)}
          page={page}
          limit={limit}
        />
      )}
      <Pager
        page={page}
        totalPages={data?.total_pages ?? 1}
        limit={limit}
        onChange={changePage}
        pageSizeOptions={logPageSizes}
        label={`${label} pages`}
      />
    </>
  );
}

/**
 * Access Logs List and Error Logs List with one shared search (docs/product.md §2.9 "Admin Logs"): used by the
 * Admin Logs page and, filtered by userId or machineNumber, by the device and device-user pages.
 * A new search starts both lists at page 1; each list loads only while its tab is shown.
 */
export function LogsTabs({ userId, machineNumber }: LogsTabsProps) {
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search.trim());
  // ?from=…&to=…: the day range is in the URL, so a reload or a link keeps it.
  const range = useUrlFilters(dateRangeNames);
  const { from, to } = range.values;
  // Page sizes outlive a new search; the page does not.
  const [limits, setLimits] = useState<Record<LogKind, number>>({
    access: logPageSizes[0],
    error: logPageSizes[0],
  });

  const list = (kind: LogKind) => (
    // Keyed by the search and range: a new one is a new list at page 1.
    <LogsList
      key={`${kind}:${debounced}:${from}:${to}`}
      kind={kind}
      search={debounced}
      from={from}
      to={to}
      userId={userId}
      machineNumber={machineNumber}
      limit={limits[kind]}
      onLimitChange={(limit) => setLimits((current) => ({ ...current, [kind]: limit }))}
    />
  );

  return (
    <div className="logs-tabs">
      <div className="d-flex flex-wrap align-items-center gap-3 mb-3">
        <SearchBox label="Search logs" value={search} onChange={setSearch} />
        <DateRangeFilter from={from ?? ''} to={to ?? ''} onChange={range.set} />
      </div>
      <Tabs
        label="Logs"
        tabs={[
          { id: 'access', label: 'Access Logs List', render: () => list('access') },
          { id: 'error', label: 'Error Logs List', render: () => list('error') },
        ]}
      />
    </div>
  );
}
