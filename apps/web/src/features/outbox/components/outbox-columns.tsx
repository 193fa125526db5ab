import { mailStatusLabels, type MailStatus, type OutboxMessage } from '@app/contract/outbox';
import type { DataTableColumn } from '#web/components/data-table.tsx';
import { StatusBadge, type StatusTone } from '#web/components/status-badge.tsx';
import { formatDateTime, orNA } from '#web/lib/format.ts';

const statusTones: Record<MailStatus, StatusTone> = {
  pending: 'info',
  sent: 'success',
  failed: 'danger',
  logged: 'secondary',
};

export function MailStatusBadge({ status }: { status: MailStatus }) {
  return <StatusBadge label={mailStatusLabels[status]} tone={statusTones[status]} />;
}

/**
 * The Outbox's columns: who, what, how it stands, and why it failed; never the body. Dates may take
 * two lines and long texts are cut (whole on hover and focus), so the list fits 1280 px (issue 35).
 */
export const outboxColumns: DataTableColumn<OutboxMessage>[] = [
  {
    key: 'createdAt',
    header: 'Created',
    render: (m) => formatDateTime(m.createdAt),
  },
  { key: 'to', header: 'To', truncate: '12em' },
  { key: 'subject', header: 'Subject', truncate: '14em' },
  { key: 'status', header: 'Status', render: (m) => <MailStatusBadge status={m.status} /> },
  { key: 'attempts', header: 'Tries', className: 'text-end' },
  { key: 'lastError', header: 'Last Error', render: (m) => orNA(m.lastError), truncate: '10em' },
  { key: 'sentAt', header: 'Sent', render: (m) => formatDateTime(m.sentAt) },
];
