import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from '#web/components/link.tsx';
import type { z } from 'zod';
import { mfaMessages, mfaResetBodySchema, type UserMfaStatus } from '@app/contract/mfa';
import { paths } from '#web/lib/paths.ts';
import { FormField } from '#web/components/form-field.tsx';
import { Modal } from '#web/components/modal.tsx';
import { SectionCard } from '#web/components/section-card.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { errorMessage, notifyError } from '#web/lib/api-client.ts';
import { formatDate } from '#web/lib/format.ts';
import { notify } from '#web/lib/notify.ts';
import { useUserMfa } from '../api/get-user-mfa.ts';
import { useResetUserMfa } from '../api/reset-user-mfa.ts';

/**
 * A user's two-step sign-in on their detail page, with the reset an admin does when the user has
 * lost the phone and the recovery codes (docs/decisions/014). The reset asks for the signed-in
 * admin's own password (and own code when theirs is on), never the user's.
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
          status={status.data}
        />
      ) : null}
    </SectionCard>
  );
}

type ResetInput = z.input<typeof mfaResetBodySchema>;

function ResetModal({
  show,
  onClose,
  userId,
  userName,
  status,
}: {
  show: boolean;
  onClose: () => void;
  userId: string;
  userName: string;
  status: UserMfaStatus;
}) {
  const formId = useId();
  const reset = useResetUserMfa(userId);
  const {
    register,
    handleSubmit,
    setError,
    formState,
    reset: clearForm,
  } = useForm<ResetInput>({
    resolver: zodResolver(mfaResetBodySchema),
    defaultValues: { password: '', code: undefined },
  });
  const close = () => {
    clearForm();
    onClose();
  };
  const submit = handleSubmit(async (body) => {
    try {
      const response = await reset.mutateAsync({
        password: body.password,
        ...(body.code ? { code: body.code } : {}),
      });
      notify.success(response.msg || mfaMessages.resetDone);
      close();
    } catch (error) {
      // A wrong password or code goes under its field, so it can be typed again; anything else is a toast.
      const message = errorMessage(error);
      if (message === mfaMessages.passwordWrong) setError('password', { message }, { shouldFocus: true });
      else if (message === mfaMessages.codeInvalid || message === mfaMessages.yourCodeRequired)
        setError('code', { message }, { shouldFocus: true });
      else notifyError(error);
    }
  });
  return (
    <Modal
      show={show}
      onClose={close}
      title="Reset two-step sign-in"
      staticBackdrop={reset.isPending}
      footer={
        <>
          <button
            type="button"
            className="btn btn-outline-secondary"
            onClick={close}
            disabled={reset.isPending}
          >
            Cancel
          </button>
          <button type="submit" form={formId} className="btn btn-danger" disabled={reset.isPending}>
            {reset.isPending ? 'Resetting...' : 'Reset'}
          </button>
        </>
      }
    >
      <p>
        For when {userName} has lost the phone with the authenticator app and the recovery codes. Their
        authenticator and recovery codes are removed and they are signed out everywhere; they sign in with
        their password and set up two-step sign-in again.
      </p>
      <form id={formId} noValidate onSubmit={submit}>
        <FormField
          label="Your password"
          type="password"
          autoComplete="current-password"
          error={formState.errors.password?.message}
          {...register('password')}
        />
        {status.yourCodeRequired ? (
          <FormField
            label="Your code"
            hint="From your own authenticator app, or one of your recovery codes."
            autoComplete="one-time-code"
            maxLength={32}
            error={formState.errors.code?.message}
            {...register('code', { setValueAs: (v: string) => (v === '' ? undefined : v) })}
          />
        ) : null}
      </form>
    </Modal>
  );
}
