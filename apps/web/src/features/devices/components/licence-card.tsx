import { useState, type ReactNode } from 'react';
import type { Device } from '@app/contract/devices';
import {
  exemptionKindLabels,
  licenceCauseLabels,
  licenceStateLabels,
  type Licence,
  type LicenceEvent,
} from '@app/contract/licences';
import { DataTable, type DataTableColumn } from '#web/components/data-table.tsx';
import { LoadError } from '#web/components/load-error.tsx';
import { SectionCard } from '#web/components/details-card.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { formatDate, formatDateTime, NA } from '#web/lib/format.ts';
import { useCan } from '#web/lib/use-session.ts';
import { useLicence } from '../api/get-licence.ts';
import { EndExemptionModal, ExemptionFormModal } from './exemption-form-modal.tsx';
import { LicenceBadge } from './licence-badge.tsx';

const change = (e: LicenceEvent) =>
  e.fromState === null || e.fromState === e.toState
    ? licenceStateLabels[e.toState]
    : `${licenceStateLabels[e.fromState]} → ${licenceStateLabels[e.toState]}`;

const historyColumns: DataTableColumn<LicenceEvent>[] = [
  { key: 'at', header: 'Time', className: 'text-nowrap', render: (e) => formatDateTime(e.at) },
  { key: 'change', header: 'Licence', render: change },
  { key: 'cause', header: 'Cause', render: (e) => licenceCauseLabels[e.cause] },
  { key: 'actor', header: 'By', render: (e) => e.actor ?? NA },
  { key: 'reason', header: 'Reason', render: (e) => e.reason ?? '' },
  {
    key: 'paidThrough',
    header: 'Paid Through',
    className: 'text-nowrap',
    render: (e) => (e.paidThrough ? formatDate(e.paidThrough) : NA),
  },
];

/**
 * Device Details "Licence" (issue 34): the state, paid through, grace until, the admin's exemption
 * with its reason and end date, and the history of changes with their causes. Exempting and ending
 * an exemption need licences.manage (and a step-up, asked for by the API client).
 */
export function LicenceCard({ device }: { device: Device }) {
  const mayManage = useCan('licences.manage');
  const licence = useLicence(device._id);
  const [exempting, setExempting] = useState(false);
  const [ending, setEnding] = useState(false);

  let body;
  if (licence.isPending) body = <Spinner label="Loading licence..." />;
  else if (licence.isError)
    body = (
      <LoadError
        error={licence.error}
        fallback="The licence could not be loaded."
        onRetry={() => void licence.refetch()}
      />
    );
  else body = <LicenceFacts licence={licence.data} />;

  const exempt = licence.data?.exemption;
  return (
    <SectionCard
      title="Licence"
      actions={
        licence.isSuccess && mayManage ? (
          <div className="d-flex flex-wrap gap-2">
            <button type="button" className="btn btn-sm btn-primary" onClick={() => setExempting(true)}>
              {exempt ? 'Change exemption' : 'Exempt'}
            </button>
            {exempt ? (
              <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => setEnding(true)}>
                End exemption
              </button>
            ) : null}
          </div>
        ) : null
      }
    >
      {body}
      {mayManage ? (
        <>
          <ExemptionFormModal
            deviceId={device._id}
            machineNumber={device.machineNumber}
            show={exempting}
            onClose={() => setExempting(false)}
          />
          <EndExemptionModal deviceId={device._id} show={ending} onClose={() => setEnding(false)} />
        </>
      ) : null}
    </SectionCard>
  );
}

function LicenceFacts({ licence }: { licence: Licence }) {
  const { exemption } = licence;
  const facts: [string, ReactNode][] = [
    [
      'State',
      <>
        <LicenceBadge state={licence.state} />
        {licence.locked ? <span className="ms-2">New treatments are refused</span> : null}
      </>,
    ],
    ['Paid Through', licence.paidThrough ? formatDate(licence.paidThrough) : NA],
    ['Grace Until', licence.graceUntil ? formatDate(licence.graceUntil) : NA],
    ['Since', licence.since ? formatDateTime(licence.since) : NA],
  ];
  if (exemption)
    facts.push(
      ['Exemption', exemptionKindLabels[exemption.kind]],
      ['Exemption Reason', exemption.reason],
      ['Exempt Until', formatDate(exemption.until)],
      ['Exempted By', `${exemption.by ?? NA} on ${formatDateTime(exemption.at)}`],
    );
  return (
    <>
      {/* As the Device Details card lays out its fields. */}
      <dl className="row mb-0">
        {facts.map(([label, value]) => (
          <div key={label} className="col-sm-6 col-lg-4 mb-3">
            <dt className="small text-body-secondary fw-semibold">{label}</dt>
            <dd className="mb-0 text-break">{value}</dd>
          </div>
        ))}
      </dl>
      <h3 className="h6">History</h3>
      <DataTable
        label="Licence history"
        columns={historyColumns}
        rows={licence.events}
        getRowKey={(e) => e._id}
        emptyText="No licence changes yet."
        showSrNo={false}
      />
    </>
  );
}
