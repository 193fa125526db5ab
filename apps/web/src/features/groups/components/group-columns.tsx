import type { Group } from '@app/contract/groups';
import type { DataTableColumn } from '#web/components/data-table.tsx';
import { formatDateTime } from '#web/lib/format.ts';
import { filterInWords, groupKindLabels, windowInWords } from './group-words.ts';

/** The groups list's columns; the name is the row's own (decision 057). */
export const groupColumns: DataTableColumn<Group>[] = [
  { key: 'name', header: 'Name', mandatory: true, truncate: true },
  { key: 'kind', header: 'Kind', render: (g) => groupKindLabels[g.kind] },
  // A dynamic group is a saved Device Management filter; a static one holds machines added to it.
  { key: 'filter', header: 'Filter', render: (g) => filterInWords(g.filter) },
  { key: 'machineCount', header: 'Machines', className: 'text-nowrap text-end' },
  {
    key: 'maintenanceWindow',
    header: 'Maintenance Window',
    className: 'text-nowrap',
    render: (g) => windowInWords(g.maintenanceWindow),
  },
  { key: 'createdAt', header: 'Created At', render: (g) => formatDateTime(g.createdAt) },
  { key: 'createdBy', header: 'Created By', truncate: true },
];
