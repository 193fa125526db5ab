import type { ErasureRequest } from '@app/contract/erasure';
import {
  erasureChannelLabels,
  erasureLegalBasisLabels,
  erasurePartLabels,
  erasureRequestScreenPath,
  erasureStateLabels,
  type ErasureState,
} from '@app/contract/erasure-texts';
import type { DataTableColumn } from '#web/components/data-table.tsx';
import { Link } from '#web/components/link.tsx';
import { StatusBadge } from '#web/components/status-badge.tsx';
import { formatDate, formatDateTime, NA } from '#web/lib/format.ts';

const tones: Record<ErasureState, 'warning' | 'success' | 'info' | 'secondary'> = {
  open: 'warning',
  erased: 'success',
  'erased-in-part': 'info',
  refused: 'secondary',
};

export const ErasureStateBadge = ({ state }: { state: ErasureState }) => (
  <StatusBadge label={erasureStateLabels[state]} tone={tones[state]} />
);

/** The patient by id and machine (never by name: the record outlives it), linked to the request. */
const requestCell = (r: ErasureRequest) => (
  <Link to={erasureRequestScreenPath(r._id)} aria-label={`Erasure request: ${r.patientLabel}`}>
    {r.patientLabel}
  </Link>
);

const parts = (list: readonly ErasureRequest['partsErased'][number][]) =>
  list.length ? list.map((p) => erasurePartLabels[p]).join(', ') : NA;

const common: DataTableColumn<ErasureRequest>[] = [
  { key: 'patientLabel', header: 'Patient', render: requestCell },
  { key: 'receivedOn', header: 'Received', render: (r) => formatDate(r.receivedOn, undefined, 'UTC') },
  { key: 'channel', header: 'How', render: (r) => erasureChannelLabels[r.channel] },
  { key: 'requestedByName', header: 'Recorded By', render: (r) => r.requestedByName },
  { key: 'state', header: 'State', render: (r) => <ErasureStateBadge state={r.state} /> },
];

const decided: DataTableColumn<ErasureRequest>[] = [
  { key: 'decidedAt', header: 'Decided', render: (r) => formatDateTime(r.decidedAt) },
  { key: 'decidedByName', header: 'Decided By', render: (r) => r.decidedByName ?? NA },
  { key: 'partsErased', header: 'Erased', render: (r) => parts(r.partsErased) },
  {
    key: 'legalBasis',
    header: 'Legal Basis',
    truncate: '16em',
    render: (r) => (r.legalBasis ? erasureLegalBasisLabels[r.legalBasis] : NA),
  },
];

/** Awaiting a decision: who asked when and how; decided: who decided, what was erased and why kept. */
export const erasureColumns = (state: ErasureState) => (state === 'open' ? common : [...common, ...decided]);
