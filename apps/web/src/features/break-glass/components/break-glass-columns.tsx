import type { BreakGlassAccess } from '@app/contract/break-glass';
import { breakGlassTexts, type BreakGlassState } from '@app/contract/break-glass-texts';
import type { DataTableColumn } from '#web/components/data-table.tsx';
import { Link } from '#web/components/link.tsx';
import { StatusBadge } from '#web/components/status-badge.tsx';
import { formatDateTime, NA } from '#web/lib/format.ts';
import { paths } from '#web/lib/paths.ts';

const person = (name: string | null, email: string | null) =>
  name ? (
    <>
      {name}
      <br />
      <small className="text-body-secondary">{email}</small>
    </>
  ) : (
    NA
  );

/** The patient by machine, linked to their page (whose contact data stays masked there). */
const patientCell = (access: BreakGlassAccess) => {
  const text = access.machineNumber ? `Patient on ${access.machineNumber}` : 'Patient';
  return access.patientId ? <Link to={paths.viewPatient.href({ id: access.patientId })}>{text}</Link> : text;
};

const common: DataTableColumn<BreakGlassAccess>[] = [
  { key: 'declaredAt', header: 'Declared', render: (a) => formatDateTime(a.declaredAt) },
  { key: 'userName', header: 'Admin', render: (a) => person(a.userName, a.userEmail) },
  { key: 'patientId', header: 'Patient', render: patientCell },
  { key: 'reason', header: 'Reason', truncate: '16em' },
  {
    key: 'expiresAt',
    header: 'Access',
    render: (a) =>
      a.active ? (
        <StatusBadge
          label={`${breakGlassTexts.accessOpen} until ${formatDateTime(a.expiresAt)}`}
          tone="warning"
        />
      ) : (
        <StatusBadge label={breakGlassTexts.accessEnded} tone="secondary" />
      ),
  },
];

const signedOff: DataTableColumn<BreakGlassAccess>[] = [
  { key: 'signedOffAt', header: 'Signed Off', render: (a) => formatDateTime(a.signedOffAt) },
  {
    key: 'signedOffByName',
    header: 'Signed Off By',
    render: (a) => person(a.signedOffByName, a.signedOffByEmail),
  },
  { key: 'signOffNote', header: 'Note', truncate: '16em' },
];

/** Each tab's columns: who broke the glass on whom, why and for how long; then who signed it off. */
export const breakGlassColumns: Record<BreakGlassState, DataTableColumn<BreakGlassAccess>[]> = {
  open: common,
  'signed-off': [...common, ...signedOff],
};
