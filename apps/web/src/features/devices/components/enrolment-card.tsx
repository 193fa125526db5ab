import { useState } from 'react';
import { deviceApiMessages } from '@app/contract/device-api';
import { type EnrolmentCode, type EnrolmentStatus } from '@app/contract/device-enrolment';
import type { Device } from '@app/contract/devices';
import { ConfirmModal } from '#web/components/confirm-modal.tsx';
import { LoadError } from '#web/components/load-error.tsx';
import { SectionCard } from '#web/components/details-card.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { StatusBadge } from '#web/components/status-badge.tsx';
import { notifyError } from '#web/lib/api-client.ts';
import { formatDateTime } from '#web/lib/format.ts';
import { notify } from '#web/lib/notify.ts';
import { useCan } from '#web/lib/use-session.ts';
import { useEnrolment } from '../api/get-enrolment.ts';
import { useIssueEnrolmentCode } from '../api/issue-enrolment-code.ts';
import { useRevokeEnrolment } from '../api/revoke-enrolment.ts';
import { EnrolmentCodeModal } from './enrolment-code-modal.tsx';

/**
 * Device Details "Enrolment" (issue 13): whether the machine's app holds a live device credential,
 * a one-time code to enrol it (shown once), and revoking the credential; the last two for an admin
 * whose role carries devices.enrol (decision 047).
 */
export function EnrolmentCard({ device }: { device: Device }) {
  const mayEnrol = useCan('devices.enrol');
  const status = useEnrolment(device._id);
  const issue = useIssueEnrolmentCode(device._id);
  const revoke = useRevokeEnrolment(device._id);
  const [code, setCode] = useState<EnrolmentCode | null>(null);
  const [confirming, setConfirming] = useState(false);

  const issueCode = () =>
    issue.mutate(undefined, {
      onSuccess: (response) => setCode(response.data),
      onError: (error) => notifyError(error),
    });
  const confirmRevoke = () =>
    revoke.mutate(undefined, {
      onSuccess: (response) => {
        notify.success(response.msg || deviceApiMessages.revoked);
        setConfirming(false);
      },
      onError: (error) => {
        notifyError(error);
        setConfirming(false);
      },
    });

  const enrolled = status.data?.enrolled ?? false;
  let body;
  if (status.isPending) body = <Spinner label="Loading enrolment..." />;
  else if (status.isError)
    body = (
      <LoadError
        error={status.error}
        fallback="The enrolment could not be loaded."
        onRetry={() => void status.refetch()}
      />
    );
  else body = <EnrolmentFacts status={status.data} />;

  return (
    <SectionCard
      title="Enrolment"
      actions={
        status.isSuccess && mayEnrol ? (
          <div className="d-flex flex-wrap gap-2">
            <button
              type="button"
              className="btn btn-sm btn-primary"
              onClick={issueCode}
              disabled={issue.isPending}
            >
              {issue.isPending ? 'Issuing...' : enrolled ? 'Issue new code' : 'Issue enrolment code'}
            </button>
            {enrolled ? (
              <button
                type="button"
                className="btn btn-sm btn-outline-danger"
                onClick={() => setConfirming(true)}
              >
                Revoke
              </button>
            ) : null}
          </div>
        ) : null
      }
    >
      {body}
      <EnrolmentCodeModal
        code={code}
        machineNumber={device.machineNumber}
        enrolled={enrolled}
        onClose={() => setCode(null)}
      />
      <ConfirmModal
        show={confirming}
        title="Revoke enrolment"
        text={`${device.machineNumber} will be refused from its next call until it enrols again with a new code.`}
        confirmText="Revoke"
        pendingText="Revoking..."
        isPending={revoke.isPending}
        onConfirm={confirmRevoke}
        onCancel={() => setConfirming(false)}
      />
    </SectionCard>
  );
}

function EnrolmentFacts({ status }: { status: EnrolmentStatus }) {
  let state;
  if (status.enrolled)
    state = (
      <>
        <StatusBadge label="Enrolled" tone="success" /> since {formatDateTime(status.enrolledAt)}
      </>
    );
  else if (status.revokedAt)
    state = (
      <>
        <StatusBadge label="Revoked" tone="danger" /> on {formatDateTime(status.revokedAt)}
      </>
    );
  else state = <StatusBadge label="Not enrolled" tone="secondary" />;

  const facts = [
    { label: 'Status', value: state },
    ...(status.pendingCodeExpiresAt
      ? [{ label: 'Unused Code Expires', value: formatDateTime(status.pendingCodeExpiresAt) }]
      : []),
  ];
  return (
    <>
      <dl className="row mb-0">
        {facts.map((fact) => (
          <div key={fact.label} className="col-sm-6 col-lg-4 mb-3">
            <dt className="small text-body-secondary fw-semibold">{fact.label}</dt>
            <dd className="mb-0">{fact.value}</dd>
          </div>
        ))}
      </dl>
      {!status.enrolled && !status.pendingCodeExpiresAt ? (
        <p className="mb-0 text-body-secondary">
          The machine&apos;s app has no credential. Issue an enrolment code and enter it on the machine.
        </p>
      ) : null}
    </>
  );
}
