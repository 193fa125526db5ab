import type { NoticeMachine, NoticePreview, SafetyNotice } from '@app/contract/safety-notices';
import {
  safetyNoticeKindLabels,
  safetyNoticeStateLabels,
  safetyNoticeTexts,
} from '@app/contract/safety-notices-texts';
import type { DataTableColumn } from '#web/components/data-table.tsx';
import { Link } from '#web/components/link.tsx';
import { formatDateTime } from '#web/lib/format.ts';
import { safetyNoticeRoute } from '../safety-notices-route.ts';

const version = (m: { appVersionCode: number | null; appVersionName: string | null }) =>
  m.appVersionCode === null ? '—' : `${m.appVersionName ?? ''} (${m.appVersionCode})`.trim();
const when = (at: string | null) => (at ? formatDateTime(at) : '—');

export const noticeColumns: readonly DataTableColumn<SafetyNotice>[] = [
  {
    key: 'reference',
    header: 'Reference',
    render: (n) => <Link to={safetyNoticeRoute.href({ id: n._id })}>{n.reference}</Link>,
  },
  { key: 'title', header: 'Title', render: (n) => n.title, truncate: true },
  { key: 'kind', header: 'Kind', render: (n) => safetyNoticeKindLabels[n.kind] },
  { key: 'state', header: 'State', render: (n) => safetyNoticeStateLabels[n.state] },
  { key: 'sentAt', header: 'Sent', render: (n) => when(n.sentAt) },
  {
    key: 'acknowledged',
    header: 'Acknowledged',
    render: (n) => (n.counts ? `${n.counts.acknowledged} of ${n.counts.machines}` : '—'),
  },
  {
    key: 'remedied',
    header: 'Remedied',
    render: (n) => (n.counts ? `${n.counts.remedied} of ${n.counts.machines}` : '—'),
  },
];

type PreviewMachine = NoticePreview['machines'][number];
export const previewColumns: readonly DataTableColumn<PreviewMachine>[] = [
  { key: 'serialNumber', header: 'Serial', render: (m) => m.serialNumber },
  { key: 'machineNumber', header: 'Machine number', render: (m) => m.machineNumber },
  { key: 'appVersion', header: 'App version', render: version },
  { key: 'contact', header: 'Contact', render: (m) => m.contact ?? safetyNoticeTexts.noContact },
];

const statusLabel: Record<NoticeMachine['status'], string> = {
  notified: 'Notified',
  acknowledged: 'Acknowledged',
  'no-contact': safetyNoticeTexts.noContact,
};

export const statusColumns: readonly DataTableColumn<NoticeMachine>[] = [
  { key: 'serialNumber', header: 'Serial', render: (m) => m.serialNumber },
  { key: 'machineNumber', header: 'Machine number', render: (m) => m.machineNumber },
  { key: 'appVersion', header: 'App version at notice', render: version },
  { key: 'contact', header: 'Contact', render: (m) => m.contact ?? safetyNoticeTexts.noContact },
  { key: 'status', header: 'Status', render: (m) => statusLabel[m.status] },
  { key: 'notifiedAt', header: 'Notified at', render: (m) => when(m.notifiedAt) },
  {
    key: 'acknowledgedAt',
    header: 'Acknowledged',
    render: (m) => (m.acknowledgedAt ? `${when(m.acknowledgedAt)} by ${m.acknowledgedBy ?? ''}` : '—'),
  },
  { key: 'remediedAt', header: 'Remedied at', render: (m) => when(m.remediedAt) },
];
