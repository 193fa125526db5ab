import { useState } from 'react';
import { rolloutStages, type RolloutAction, type RolloutChangeBody } from '@app/contract/app-update-rollouts';
import type { AppUpdateListItem } from '@app/contract/app-updates';
import { ConfirmModal } from '#web/components/confirm-modal.tsx';
import { notifyError } from '#web/lib/api-client.ts';
import { notify } from '#web/lib/notify.ts';
import { useSession } from '#web/lib/use-session.ts';
import { useChangeRollout } from '../api/change-rollout.ts';
import { ApproveRolloutModal } from './approve-rollout-modal.tsx';

type Offer = { label: string; body: RolloutChangeBody; text: string; danger?: boolean };

/** Said in the Actions cell, instead of Approve, to the admin who asked for what waits. */
const waitingForAnotherAdmin = 'Waiting for another admin to approve';

/** Whether what waits for approval on this release was asked for by the signed-in admin `me`. */
const askedBy = (r: AppUpdateListItem, me: string | null) =>
  r.approvalPending !== null && me !== null && r.approvalRequestedBy === me;

/**
 * What an admin (`me`, the signed-in admin's id) may do with a release now, mirroring the API's
 * transitions (decision 051). Approve is not offered to the admin who asked: the API refuses them.
 */
export function rolloutOffers(r: AppUpdateListItem, me: string | null): Offer[] {
  if (r.rolloutState === 'withdrawn') return [];
  const offers: Offer[] = [];
  const act = (action: RolloutAction, label: string, text: string, danger = false) =>
    offers.push({ label, body: { action }, text, danger });
  if (r.approvalPending && !askedBy(r, me))
    act(
      'approve',
      'Approve',
      'Approve what another admin asked for? The release then reaches more machines.',
    );
  const next = rolloutStages.find((s) => s > r.rolloutPercent);
  if (r.rolloutState !== 'halted' && next !== undefined && r.approvalPending !== 'full-stage')
    offers.push({
      label: `Advance to ${next} %`,
      body: { action: 'advance', percent: next },
      text: `Offer this release to ${next} % of the machines?`,
    });
  if (r.rolloutState === 'active')
    act('pause', 'Pause', 'Pause the rollout? No new machine gets it until you resume.');
  if (r.rolloutState === 'paused') act('resume', 'Resume', 'Resume the rollout?');
  if (r.rolloutState !== 'halted')
    act(
      'halt',
      'Halt',
      'Halt the rollout? No new machine gets this release, and it cannot be resumed.',
      true,
    );
  act(
    'withdraw',
    'Withdraw',
    'Withdraw this release? Machines that took it are offered the previous one.',
    true,
  );
  return offers;
}

/**
 * The rollout buttons of each row, and the one confirmation they share: each button asks first,
 * the confirmation sends the change and toasts the server's message (or the error). Approve opens
 * the signing dialog instead (decision 083).
 */
export function useRolloutActions() {
  const [asked, setAsked] = useState<{ release: AppUpdateListItem; offer: Offer } | null>(null);
  const [approving, setApproving] = useState<AppUpdateListItem | null>(null);
  const change = useChangeRollout();
  const me = useSession((s) => s.details?._id ?? null);
  const onConfirm = async () => {
    if (!asked) return;
    try {
      notify.success((await change.mutateAsync({ id: asked.release._id, body: asked.offer.body })).msg);
    } catch (error) {
      notifyError(error);
    } finally {
      setAsked(null);
    }
  };
  const buttons = (release: AppUpdateListItem) => (
    <div className="d-flex flex-wrap gap-1 align-items-center">
      {askedBy(release, me) && release.rolloutState !== 'withdrawn' ? (
        <span className="small text-body-secondary">{waitingForAnotherAdmin}</span>
      ) : null}
      {rolloutOffers(release, me).map((offer) => (
        <button
          key={offer.label}
          type="button"
          className={`btn btn-sm ${offer.danger ? 'btn-outline-danger' : 'btn-outline-primary'}`}
          aria-label={`${offer.label}: ${release.appName} ${release.versionName}`}
          onClick={() =>
            offer.body.action === 'approve' ? setApproving(release) : setAsked({ release, offer })
          }
        >
          {offer.label}
        </button>
      ))}
    </div>
  );
  const modal = (
    <>
      <ApproveRolloutModal release={approving} onClose={() => setApproving(null)} />
      <ConfirmModal
        show={asked !== null}
        title={asked ? `${asked.offer.label}: ${asked.release.appName} ${asked.release.versionName}` : ''}
        text={asked?.offer.text ?? ''}
        confirmText={asked?.offer.label ?? 'Yes'}
        cancelText="Cancel"
        pendingText="Saving..."
        isPending={change.isPending}
        onConfirm={() => void onConfirm()}
        onCancel={() => setAsked(null)}
      />
    </>
  );
  return { buttons, modal };
}
