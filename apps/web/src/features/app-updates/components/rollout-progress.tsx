import { rolloutProgressText, rolloutStateLabels } from '@app/contract/app-update-rollouts';
import type { AppUpdateListItem } from '@app/contract/app-updates';
import { SignatureLines } from '#web/components/signature-line.tsx';

/**
 * A release's rollout: its state and stage, and a bar of the targeted machines that report it
 * (from their check-ins), with the figures in words for screen readers and sighted users alike,
 * and the signatures of its approvals.
 */
export function RolloutProgress({ release }: { release: AppUpdateListItem }) {
  const { targeted, updated } = release.progress;
  const share = targeted === 0 ? 0 : Math.round((updated / targeted) * 100);
  const waiting =
    release.approvalPending === 'release'
      ? 'Awaiting approval'
      : release.approvalPending === 'full-stage'
        ? '100 % awaiting approval'
        : null;
  return (
    <div style={{ minWidth: '10rem', maxWidth: '13rem' }}>
      <div className="small text-nowrap">
        {rolloutStateLabels[release.rolloutState]} · {release.rolloutPercent} %
        {waiting ? <span className="badge text-bg-warning ms-1">{waiting}</span> : null}
      </div>
      <div
        className="progress my-1"
        style={{ height: '0.5rem' }}
        role="progressbar"
        aria-label={`Rollout of ${release.appName} ${release.versionName}: machines updated`}
        aria-valuenow={share}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div className="progress-bar" style={{ width: `${share}%` }} />
      </div>
      <div className="small text-body-secondary">{rolloutProgressText(release.progress)}</div>
      {/* The second admins' signed approvals (decision 083). */}
      <SignatureLines signatures={release.signatures} />
    </div>
  );
}
