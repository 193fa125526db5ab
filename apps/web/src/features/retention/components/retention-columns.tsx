import type {
  LegalHold,
  RetentionPeriod,
  RetentionRun,
  RetentionScheduleEntry,
} from '@app/contract/retention';
import {
  retentionActionLabels,
  retentionRecordTypeLabels,
  retentionRecordTypes,
  retentionTexts,
} from '@app/contract/retention-texts';
import type { DataTableColumn } from '#web/components/data-table.tsx';
import { StatusBadge } from '#web/components/status-badge.tsx';
import { formatDateTime } from '#web/lib/format.ts';

const plural = (n: number, one: string) => `${n.toLocaleString()} ${one}${n === 1 ? '' : 's'}`;

export const formatPeriod = ({ days, years }: RetentionPeriod) =>
  years !== null ? plural(years, 'year') : days !== null ? plural(days, 'day') : 'Kept forever';

/** The schedule: what is kept, how long from when, the countries that keep it longer, what happens after. */
export const scheduleColumns: DataTableColumn<RetentionScheduleEntry>[] = [
  { key: 'label', header: 'Record type' },
  { key: 'period', header: 'Kept for', render: (e) => formatPeriod(e.period) },
  { key: 'measuredFrom', header: 'Counted from' },
  {
    key: 'countryOverrides',
    header: 'Country overrides',
    render: (e) =>
      e.countryOverrides.length
        ? e.countryOverrides.map((o) => `${o.country}: ${plural(o.years, 'year')}`).join('; ')
        : retentionTexts.noOverrides,
  },
  { key: 'action', header: 'Then', render: (e) => retentionActionLabels[e.action] },
  { key: 'setting', header: 'Setting', render: (e) => (e.setting ? <code>{e.setting}</code> : 'Fixed') },
];

/** What a run removed, the types with something removed first named. */
const removedText = (run: RetentionRun) => {
  const some = retentionRecordTypes.filter((type) => (run.removed[type] ?? 0) > 0);
  return some.length
    ? some
        .map((type) => `${retentionRecordTypeLabels[type]}: ${run.removed[type]!.toLocaleString()}`)
        .join('; ')
    : 'Nothing past its period';
};

export const runColumns: DataTableColumn<RetentionRun>[] = [
  { key: 'startedAt', header: 'Started', render: (r) => formatDateTime(r.startedAt) },
  { key: 'finishedAt', header: 'Finished', render: (r) => formatDateTime(r.finishedAt) },
  { key: 'removed', header: 'Removed', render: removedText },
];

export const holdColumns: DataTableColumn<LegalHold>[] = [
  { key: 'subjectLabel', header: 'Held' },
  { key: 'reason', header: 'Reason', truncate: '16em' },
  {
    key: 'placedAt',
    header: 'Placed',
    render: (h) => (
      <>
        {formatDateTime(h.placedAt)}
        <br />
        <small className="text-body-secondary">{h.placedByEmail}</small>
      </>
    ),
  },
  {
    key: 'liftedAt',
    header: 'State',
    render: (h) =>
      h.liftedAt ? (
        <>
          <StatusBadge label={retentionTexts.lifted} tone="secondary" />
          <br />
          <small className="text-body-secondary">
            {formatDateTime(h.liftedAt)}, {h.liftedByEmail}: {h.liftReason}
          </small>
        </>
      ) : (
        <StatusBadge label={retentionTexts.active} tone="warning" />
      ),
  },
];
