import type { ClinicMachine } from '@app/contract/clinic-portal';
import { deviceStatusLabels, licenceText, type DeviceStatus } from '@app/contract/devices';
import type { DataTableColumn } from '#web/components/data-table.tsx';
import { StatusBadge } from '#web/components/status-badge.tsx';
import { formatDate, formatDateTime, NA } from '#web/lib/format.ts';

const licenceTone = {
  active: 'success',
  exempt: 'info',
  grace: 'warning',
  lapsed: 'danger',
  unlicensed: 'secondary',
} as const;

/** The clinic's machines' columns (issue 39 item 5): the sortable ones are the API's sort keys. */
export const clinicMachineColumns: DataTableColumn<ClinicMachine>[] = [
  { key: 'machineNumber', header: 'Machine Number', sortable: true, className: 'text-nowrap' },
  { key: 'serialNumber', header: 'Serial Number', sortable: true, className: 'text-nowrap' },
  {
    key: 'location',
    header: 'Location',
    sortable: true,
    truncate: '14em',
    render: (m) => [m.location, m.city, m.country].filter(Boolean).join(', '),
  },
  {
    key: 'status',
    header: 'Status',
    render: (m) => (
      <span className="d-inline-flex flex-wrap gap-1">
        <StatusBadge
          label={deviceStatusLabels[m.status as DeviceStatus] ?? NA}
          tone={m.status === 2 ? 'success' : 'secondary'}
        />
        <StatusBadge label={m.online ? 'Online' : 'Offline'} tone={m.online ? 'success' : 'secondary'} />
      </span>
    ),
  },
  {
    key: 'lastSeenAt',
    header: 'Last Seen',
    sortable: true,
    className: 'text-nowrap',
    render: (m) => (m.lastSeenAt ? formatDateTime(m.lastSeenAt) : 'Never'),
  },
  {
    key: 'licenceState',
    header: 'Licence',
    sortable: true,
    render: (m) => (
      <StatusBadge label={licenceText(m, (iso) => formatDate(iso))} tone={licenceTone[m.licenceState]} />
    ),
  },
  {
    key: 'licencePaidThrough',
    header: 'Paid Through',
    sortable: true,
    className: 'text-nowrap',
    render: (m) => (m.licencePaidThrough ? formatDate(m.licencePaidThrough) : NA),
  },
];
