import { useState } from 'react';
import { Link } from '#web/components/link.tsx';
import { mfaMessages } from '@app/contract/mfa';
import { paths } from '#web/lib/paths.ts';
import { ConfirmModal } from '#web/components/confirm-modal.tsx';
import { SectionCard } from '#web/components/section-card.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { errorMessage, notifyError } from '#web/lib/api-client.ts';
import { formatDate } from '#web/lib/format.ts';
import { notify } from '#web/lib/notify.ts';
import { useUserMfa } from '../api/get-user-mfa.ts';
import { useResetUserMfa } from '../api/reset-user-mfa.ts';

/**
 * A user's two-step sign-in on their detail page, with the reset an admin does when the user has
 * lost the phone and the recovery codes (docs/decisions/014). The reset needs the signed-in admin's
 * own password (and own code when theirs is on), never the user's: the step-up (decision 046).
 */
export function UserTwoStepCard({ userId, userName }: { userId: string; userName: string }) {
  const status = useUserMfa(userId);
  const [resetting, setResetting] = useState(false);

  let body;
  if (status.isPending) body = <Spinner />;
  else if (status.isError) body = <p className="mb-0">{errorMessage(status.error)}</p>;
  else if (!status.data.enabled)
    body = (
      <p className="mb-0">
        Off. Sign-in asks {status.data.isYou ? 'you' : 'this user'} only for the password.
      </p>
    );
  else
    body = (
      <>
        <p>
          <span className="badge text-bg-success me-2">On</span>
          Since {formatDate(status.data.enabledAt)}. {status.data.recoveryCodesLeft} of 10 recovery codes
          left.
        </p>
        {status.data.isYou ? (
          <p className="mb-0">
            This is you: change it on <Link to={paths.profile.href()}>My Profile</Link>.
          </p>
        ) : (
          <button type="button" className="btn btn-outline-danger" onClick={() => setResetting(true)}>
            Reset two-step sign-in
          </button>
        )}
      </>
    );

  return (
    <SectionCard title="Two-step sign-in">
      {body}
      {status.data?.enabled && !status.data.isYou ? (
        <ResetModal
          show={resetting}
          onClose={() => setResetting(false)}
          userId={userId}
          userName={userName}
        />
      ) : null}
    </SectionCard>
  );
}

/** The reset, confirmed; the admin's own password (and code) is asked by the step-up when due (decision 046). */
function ResetModal({
  show,
  onClose,
  userId,
  userName,
}: {
  show: boolean;
  onClose: () => void;
  userId: string;
  userName: string;
}) {
  const reset = useResetUserMfa(userId);
  const confirm = async () => {
    try {
      const response = await reset.mutateAsync();
      notify.success(response.msg || mfaMessages.resetDone);
      onClose();
    } catch (error) {
      notifyError(error);
    }
  };
  return (
    <ConfirmModal
      show={show}
      onCancel={onClose}
      onConfirm={() => void confirm()}
      title="Reset two-step sign-in"
      text={`For when ${userName} has lost the phone with the authenticator app and the recovery codes. Their authenticator and recovery codes are removed and they are signed out everywhere; they sign in with their password and set up two-step sign-in again.`}
      isPending={reset.isPending}
      confirmText="Reset"
      cancelText="Cancel"
      pendingText="Resetting..."
    />
  );
}
