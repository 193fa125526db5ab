import {
  alarmDetailText,
  alarmRuleLabels,
  alarmStatusLabels,
  alarmStatusOf,
  alarmTexts,
  type Alarm,
  type AlarmStatus,
} from '@app/contract/alarms';
import type { DataTableColumn } from '#web/components/data-table.tsx';
import { Link } from '#web/components/link.tsx';
import { StatusBadge, type StatusTone } from '#web/components/status-badge.tsx';
import { formatDateTime } from '#web/lib/format.ts';
import { paths } from '#web/lib/paths.ts';

const statusTones: Record<AlarmStatus, StatusTone> = {
  open: 'danger',
  acknowledged: 'warning',
  resolved: 'success',
  cleared: 'secondary',
};

/** The time as every other screen shows it: the admin's time zone. */
const at = (iso: string) => formatDateTime(iso);

export function AlarmStatusBadge({ alarm }: { alarm: Alarm }) {
  const status = alarmStatusOf(alarm);
  return <StatusBadge label={alarmStatusLabels[status]} tone={statusTones[status]} />;
}

const common: DataTableColumn<Alarm>[] = [
  {
    key: 'machineNumber',
    header: 'Machine Number',
    className: 'text-nowrap',
    render: (a) => (
      <Link to={paths.deviceDetails.href({ id: a.deviceId })} state={{ deviceId: a.deviceId }}>
        {a.machineNumber}
      </Link>
    ),
  },
  { key: 'rule', header: 'Rule', render: (a) => alarmRuleLabels[a.rule] },
  // What happened, in words: the one column left to wrap, never cut.
  { key: 'detail', header: 'Detail', render: (a) => alarmDetailText(a, at) },
  // A date and its time may take two lines: the row's actions need the room at 1280 px.
  { key: 'openedAt', header: 'Opened', render: (a) => at(a.openedAt) },
  { key: 'status', header: 'Status', render: (a) => <AlarmStatusBadge alarm={a} /> },
];

/** Open alarms: who acknowledged. Past ones: when and by whom (or by itself) they were resolved. */
export const openColumns: DataTableColumn<Alarm>[] = [
  ...common,
  { key: 'acknowledgedBy', header: 'Acknowledged By' },
];
export const pastColumns: DataTableColumn<Alarm>[] = [
  ...common,
  {
    key: 'resolvedAt',
    header: 'Resolved',
    render: (a) => formatDateTime(a.resolvedAt),
  },
  { key: 'resolvedBy', header: 'Resolved By', render: (a) => a.resolvedBy ?? alarmTexts.resolvedByItself },
];
