import type { Customer } from '@app/contract/customers';
import type { DataTableColumn } from '#web/components/data-table.tsx';
import { Link } from '#web/components/link.tsx';
import { formatDateTime } from '#web/lib/format.ts';
import { paths } from '#web/lib/paths.ts';

/** The Customers list's columns; the name opens the customer's page and cannot be hidden (decision 057). */
export const customerColumns: DataTableColumn<Customer>[] = [
  {
    key: 'name',
    header: 'Name',
    sortable: true,
    mandatory: true,
    truncate: '14em',
    render: (c) => <Link to={paths.viewCustomer.href({ id: c._id })}>{c.name}</Link>,
  },
  { key: 'country', header: 'Country', sortable: true, className: 'text-nowrap' },
  { key: 'billingEmail', header: 'Billing email', truncate: '14em' },
  { key: 'taxId', header: 'Tax id', className: 'text-nowrap', hiddenByDefault: true },
  { key: 'address', header: 'Address', truncate: '14em', hiddenByDefault: true },
  {
    key: 'machineCount',
    header: 'Machines',
    className: 'text-nowrap text-end',
    render: (c) => c.machineCount.toLocaleString('en-US'),
  },
  {
    key: 'createdAt',
    header: 'Created',
    sortable: true,
    className: 'text-nowrap',
    render: (c) => formatDateTime(c.createdAt),
  },
];
