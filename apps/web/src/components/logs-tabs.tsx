import { useState } from 'react';
import {
  accessLogExportColumns,
  errorLogExportColumns,
  logMessages,
  logPageSizes,
  type AccessLog,
  type ErrorLog,
} from '@app/contract/logs';
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
import { keptPageSize, useListPreferences, useSaveListPreferences } from '../lib/list-preferences.ts';
import { useUrlListState } from '../lib/use-url-list-state.ts';
import { ListTools } from './list-tools.tsx';
import { SavedViewsMenu } from './saved-views-menu.tsx';
import { columnChoicesOf, useListColumns } from './use-column-visibility.ts';

const dateRangeNames = ['from', 'to'] as const;

export type LogsTabsProps = {
  /** Only this user's rows (a doctor, patient, technician or admin). */
  userId?: string;
  /** Only this device's rows. */
  machineNumber?: string;
  /**
   * The search lives in the URL with the day range, and a Views menu offers views of them (the
   * Admin Logs page); on a record's page, which holds several lists, the search is the tabs' own.
   */
  inUrl?: boolean;
};

const who = (log: AccessLog | ErrorLog) => orNA(log.userEmail ?? log.user?.email ?? log.user?.userId);

const accessColumns: DataTableColumn<AccessLog>[] = [
  { key: 'resource', header: 'Resource', className: 'text-break' },
  { key: 'words', header: 'What Happened', className: 'text-break', render: (log) => <LogWords log={log} /> },
  { key: 'location', header: 'Location', className: 'text-nowrap' },
  { key: 'userEmail', header: 'User', render: who },
  // When it happened names the row: it cannot be hidden (decision 057).
  {
    key: 'time',
    header: 'Time',
    className: 'text-nowrap',
    mandatory: true,
    render: (log) => formatDateTime(log.time),
  },
];

const errorColumns: DataTableColumn<ErrorLog>[] = [
  { key: 'resource', header: 'Resource', className: 'text-break' },
  { key: 'functionName', header: 'Function Name' },
  { key: 'message', header: 'Message' },
  { key: 'userEmail', header: 'User', render: who },
  // Keyed 'time' as on the access list: one Time column of the one list 'logs'.
  {
    key: 'time',
    header: 'Time',
    className: 'text-nowrap',
    mandatory: true,
    render: (log) => formatDateTime(log.utcTime),
  },
];

/*
 * Both tabs keep one list, 'logs' (decision 057): they are one screen with one search and day range
 * (docs/product.md §2.9), so one page size serves both, and a column they share (Resource, User,
 * Time) is chosen once. Each tab's chooser keeps the other tab's own columns where they were.
 */
const accessChoices = columnChoicesOf(accessColumns);
const errorChoices = columnChoicesOf(errorColumns);
// Every column of the two, in an order that agrees with each tab's own.
const logChoices = ['resource', 'words', 'location', 'functionName', 'message', 'userEmail', 'time'].map(
  (key) => [...accessChoices, ...errorChoices].find((c) => c.key === key)!,
);

type ListProps = LogsTabsProps & {
  kind: LogKind;
  search: string;
  from?: string;
  to?: string;
  limit: number;
  onLimitChange: (limit: number) => void;
  /** False until the kept page size is read: the first request already has it. */
  ready: boolean;
};

/**
 * One log list with its own pager. Next continues from the last row shown (the server's cursor),
 * so paging stays fast however deep it goes; Prev uses the cursor remembered for that page.
 */
function LogsList({ kind, search, from, to, userId, machineNumber, limit, onLimitChange, ready }: ListProps) {
  const [page, setPage] = useState(1);
  const [cursors, setCursors] = useState<Record<number, string>>({});
  const shown = useListColumns('logs', kind === 'access' ? accessChoices : errorChoices, logChoices);
  const { data, isPending, isFetching } = useLogs(
    {
      kind,
      page,
      limit,
      search: search || undefined,
      from,
      to,
      userId,
      machineNumber,
      after: cursors[page],
    },
    ready,
  );
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
      <div className="d-flex flex-wrap justify-content-end gap-2 mb-2">
        <ListTools columns={shown} views={false} />
        <ExportCsvButton
          path={kind === 'access' ? apiPaths.accessLogsExport : apiPaths.errorLogsExport}
          query={{ search: search || undefined, from, to, userId, machineNumber }}
          columns={{
            shown: shown.visible,
            exportable: kind === 'access' ? accessLogExportColumns : errorLogExportColumns,
          }}
          expectedRows={data?.total}
          fileName={kind === 'access' ? 'access-logs' : 'error-logs'}
        />
      </div>
      {kind === 'access' ? (
        <DataTable
          label={label}
          columns={accessColumns}
          visibleColumns={shown.visible}
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
          visibleColumns={shown.visible}
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
        total={data?.total}
        noun={['entry', 'entries']}
        approximate={data?.totalIsEstimate}
      />
    </>
  );
}

/**
 * Access Logs List and Error Logs List with one shared search (docs/product.md §2.9 "Admin Logs"): used by the
 * Admin Logs page and, filtered by userId or machineNumber, by the device and device-user pages.
 * A new search starts both lists at page 1; each list loads only while its tab is shown.
 */
export function LogsTabs({ userId, machineNumber, inUrl = false }: LogsTabsProps) {
  const urlList = useUrlListState({ pageSizes: logPageSizes });
  const [ownSearch, setOwnSearch] = useState('');
  const ownDebounced = useDebouncedValue(ownSearch.trim());
  const [search, setSearch, debounced] = inUrl
    ? [urlList.search, urlList.setSearch, urlList.debouncedSearch]
    : [ownSearch, setOwnSearch, ownDebounced];
  // ?from=…&to=…: the day range is in the URL, so a reload or a link keeps it.
  const range = useUrlFilters(dateRangeNames);
  const { from, to } = range.values;
  // The page size is kept on the server (decision 053) and outlives a new search; the page does not.
  const { prefs, loaded } = useListPreferences('logs');
  const saveLimit = useSaveListPreferences('logs');
  const [picked, setPicked] = useState<number | null>(null);
  const limit = picked ?? keptPageSize(prefs, logPageSizes, logPageSizes[0]);
  // A view holds both tabs' columns under the one key.
  const viewColumns = useListColumns('logs', logChoices);

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
      limit={limit}
      onLimitChange={(next) => (setPicked(next), saveLimit({ pageSize: next }))}
      ready={loaded}
    />
  );

  return (
    <div className="logs-tabs">
      <div className="d-flex flex-wrap align-items-center gap-3 mb-3">
        <SearchBox label="Search logs" value={search} onChange={setSearch} />
        <DateRangeFilter from={from ?? ''} to={to ?? ''} onChange={range.set} />
        {inUrl ? (
          <div className="ms-auto">
            <SavedViewsMenu columns={viewColumns} />
          </div>
        ) : null}
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
