import { lazy, useState } from 'react';
import { expiringWithinDays } from '@app/contract/dashboard';
import {
  demoPaymentLabel,
  subscriptionExportColumns,
  subscriptionStatusLabels,
  subscriptionTexts,
  type Subscription,
  type SubscriptionStatus,
} from '@app/contract/subscriptions';
import type { DataTableColumn } from '#web/components/data-table.tsx';
import { ExportCsvButton } from '#web/components/export-csv-button.tsx';
import { apiPaths } from '@app/contract/paths';
import { SearchBox } from '#web/components/search-box.tsx';
import { PageHeader } from '#web/components/page-header.tsx';
import { StatusBadge } from '#web/components/status-badge.tsx';
import { AddButton, PagedTable } from '#web/components/paged-table.tsx';
import { DEFAULT_PAGE_SIZES } from '#web/components/pager.tsx';
import { Link } from '#web/components/link.tsx';
import { formatDateTime } from '#web/lib/format.ts';
import { paths } from '#web/lib/paths.ts';
import { useUrlFilter } from '#web/lib/use-url-filter.ts';
import { useUrlListState } from '#web/lib/use-url-list-state.ts';
import { FilterSelect } from '#web/components/filter-select.tsx';
import { ListTools } from '#web/components/list-tools.tsx';
import { columnChoicesOf, useListColumns } from '#web/components/use-column-visibility.ts';
import { MountWhenShown } from '#web/components/mount-when-shown.tsx';
import { useCan } from '#web/lib/use-session.ts';
import { useSubscriptions } from '../api/get-subscriptions.ts';
import { AddSubscriptionModal } from '../components/add-subscription-modal.tsx';
import { CopyLinkButton } from '../components/copy-link-button.tsx';
import type { OperationTarget } from '../components/operation-texts.ts';
import { SubscriptionRowMenu } from '../components/subscription-row-menu.tsx';
import { SubscriptionStatusBadge } from '../components/subscription-status-badge.tsx';

const statusValues = ['1', '2', '3', '4'] as const;
const statusOptions = statusValues.map((value) => ({
  value,
  label: subscriptionStatusLabels[Number(value) as SubscriptionStatus],
}));
// The dashboard's 7 days, and a month ahead (issue 17 item 2).
const expiryValues = [String(expiringWithinDays), '30'] as const;
const expiryOptions = expiryValues.map((days) => ({ value: days, label: `Expiring in ${days} days` }));

const dollars = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

const columns: DataTableColumn<Subscription>[] = [
  // The column that names the row cannot be hidden (decision 057).
  { key: 'fullName', header: 'Name', mandatory: true, truncate: '9em' },
  { key: 'email', header: 'Email', truncate: '11em' },
  // Ours (issue 39): the customer it is for; a column to choose.
  {
    key: 'customerName',
    header: 'Customer',
    truncate: '11em',
    hiddenByDefault: true,
    render: (s) =>
      s.customerId ? (
        <Link to={paths.viewCustomer.href({ id: s.customerId })}>{s.customerName ?? s.customerId}</Link>
      ) : null,
  },
  {
    key: 'machineSerialNumber',
    header: 'Machine Serial No.',
    className: 'text-nowrap',
    render: (s) => <MachineSerial subscription={s} />,
  },
  {
    key: 'amount',
    header: 'Amount ($)',
    className: 'text-nowrap',
    render: (s) => `$${dollars.format(s.amount)}`,
  },
  { key: 'createdAt', header: 'Link Sent Time', render: (s) => formatDateTime(s.createdAt) },
  { key: 'expiredAt', header: 'Link Expiry Time', render: (s) => formatDateTime(s.expiredAt) },
  {
    key: 'status',
    header: 'Status',
    // A demo payment moved no money: it must never pass for a real one (issue 18).
    render: (s) => (
      <span className="d-inline-flex flex-wrap gap-1">
        <SubscriptionStatusBadge status={s.status} />
        {s.demoPayment && <StatusBadge label={demoPaymentLabel} tone="info" />}
      </span>
    ),
  },
];

const choices = columnChoicesOf(columns);

// The operations' forms load when a row's menu is first reached, not with the list.
const loadOperationDialogs = () => import('../components/operation-dialogs.tsx');
const OperationDialogs = lazy(() => loadOperationDialogs().then((m) => ({ default: m.OperationDialogs })));
const preloadOperationDialogs = () => void loadOperationDialogs();

/** The serial, linked to the machine's Device Details for an admin who may see machines (issue 34). */
function MachineSerial({ subscription: s }: { subscription: Subscription }) {
  const maySeeMachines = useCan('devices.view');
  if (!s.deviceId || !maySeeMachines) return s.machineSerialNumber;
  return (
    <Link to={paths.deviceDetails.href({ id: s.deviceId })} state={{ deviceId: s.deviceId }}>
      {s.machineSerialNumber}
    </Link>
  );
}

/**
 * /admin/subscription-management (docs/product.md §2.12 "Subscription Management"); adding one is for an
 * admin whose role carries subscriptions.manage (decision 047). Each row's menu opens the
 * subscription's page and runs the operations the admin may run on it.
 */
export function SubscriptionsPage() {
  // The page size the admin last chose is kept on the server (decision 053).
  const list = useUrlListState({ pageSizes: DEFAULT_PAGE_SIZES, listKey: 'subscriptions' });

  const mayAdd = useCan('subscriptions.manage');
  const [adding, setAdding] = useState(false);
  // An operation chosen from a row's menu (issue 34 item 5), on that row's subscription.
  const [operation, setOperation] = useState<OperationTarget | null>(null);
  const shown = useListColumns('subscriptions', choices);
  // ?status=1..4 and ?expiresWithin=7|30: the dashboard's subscription figures link here.
  const [status, setStatus] = useUrlFilter('status', statusValues, '');
  const [expiring, setExpiring] = useUrlFilter('expiresWithin', expiryValues, '');
  const { data, isPending, isFetching } = useSubscriptions(
    {
      page: list.page,
      limit: list.limit,
      status: status ? (Number(status) as SubscriptionStatus) : undefined,
      expiresWithin: expiring ? Number(expiring) : undefined,
      search: list.debouncedSearch || undefined,
    },
    list.ready,
  );

  return (
    <>
      <PageHeader
        title="Subscription Management"
        actions={
          <>
            <ExportCsvButton
              path={apiPaths.subscriptionExport}
              query={{
                status: status || undefined,
                expiresWithin: expiring || undefined,
                search: list.debouncedSearch || undefined,
              }}
              columns={{ shown: shown.visible, exportable: subscriptionExportColumns }}
              expectedRows={data?.total}
              fileName="subscriptions"
            />
            {mayAdd ? (
              <AddButton onClick={() => setAdding(true)}>{subscriptionTexts.addSubscription}</AddButton>
            ) : null}
          </>
        }
      />
      <PagedTable
        toolbar={
          <div className="d-flex flex-wrap align-items-center gap-3 mb-3">
            <SearchBox label="Search subscriptions" value={list.search} onChange={list.setSearch} />
            <FilterSelect
              label="Status"
              allLabel="All statuses"
              value={status}
              options={statusOptions}
              onChange={setStatus}
            />
            <FilterSelect
              label="Expiry"
              allLabel="Any expiry"
              value={expiring}
              options={expiryOptions}
              onChange={setExpiring}
            />
            <ListTools columns={shown} />
          </div>
        }
        label="Subscriptions"
        columns={columns}
        visibleColumns={shown.visible}
        rows={data?.subscriptions}
        getRowKey={(s) => s._id}
        emptyText={subscriptionTexts.empty}
        isLoading={isPending || (isFetching && !data)}
        list={list}
        totalPages={data?.total_pages}
        total={data?.total}
        noun={['subscription', 'subscriptions']}
        pagerLabel="Subscriptions pages"
        srNoHeader="Sr No."
        actions={(s) => (
          <>
            <CopyLinkButton link={s.link} name={s.fullName} />
            <SubscriptionRowMenu
              subscription={s}
              onChoose={setOperation}
              onIntent={preloadOperationDialogs}
            />
          </>
        )}
      />
      <MountWhenShown show={operation !== null}>
        <OperationDialogs target={operation} onClose={() => setOperation(null)} />
      </MountWhenShown>
      {mayAdd ? <AddSubscriptionModal show={adding} onClose={() => setAdding(false)} /> : null}
    </>
  );
}
