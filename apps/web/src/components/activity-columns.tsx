import type { CustomerActivity } from '@app/contract/customers';
import { logInWords } from '@app/contract/log-words';
import { formatDateTime } from '#web/lib/format.ts';
import type { DataTableColumn } from './data-table.tsx';

/**
 * A customer's activity as a table (issue 39 item 6): on the customer's page for the supplier and in
 * the clinic portal for its manager, where the supplier's staff are named as the supplier (the API's).
 */
export const activityColumns: DataTableColumn<CustomerActivity>[] = [
  { key: 'createdAt', header: 'When', className: 'text-nowrap', render: (a) => formatDateTime(a.createdAt) },
  { key: 'userEmail', header: 'Who', truncate: true, render: (a) => a.userEmail ?? 'System' },
  { key: 'what', header: 'What', render: (a) => logInWords(a)?.text ?? a.resource },
  { key: 'statusCode', header: 'Result', className: 'text-nowrap' },
];
