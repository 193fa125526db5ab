import { useEffect, useState } from 'react';
import {
  mfaCodeBodySchema,
  mfaConfirmBodySchema,
  mfaMessages,
  type MfaChallenge,
  type MfaSetup,
} from '@app/contract/mfa';
import { RecoveryCodes } from '#web/components/recovery-codes.tsx';
import { TotpSetup } from '#web/components/totp-setup.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { notify } from '#web/lib/notify.ts';
import { confirmSignInEnrolment, type EnrolledSession } from '../api/confirm-sign-in-enrolment.ts';
import type { SignInSession } from '../api/sign-in.ts';
import { startSignInEnrolment } from '../api/start-sign-in-enrolment.ts';
import { verifyMfaCode } from '../api/verify-mfa-code.ts';
import { MfaCodeForm } from './mfa-code-form.tsx';
import { signInFailureMessage } from './sign-in-submit.ts';

export type MfaStepProps = {
  challenge: MfaChallenge;
  onSignedIn: (session: SignInSession) => void;
  /** Back to the password: the step token has expired, or the admin chose to. */
  onRestart: () => void;
};

/*
 * The second step of sign-in, loaded only when the login answer asks for it (the first screen stays
 * light). `verify`: the code from the app or a recovery code. `enrol` (REQUIRE_MFA): set up the app,
 * confirm with a code, note the recovery codes, then enter the console.
 */
const isExpired = (error: unknown) => error instanceof ApiError && error.msg === mfaMessages.challengeInvalid;

export function MfaStep({ challenge, onSignedIn, onRestart }: MfaStepProps) {
  // An expired step token cannot be fixed by typing another code: start again from the password.
  const restartIfExpired = (error: unknown): never => {
    if (isExpired(error)) {
      notify.error(mfaMessages.challengeInvalid);
      onRestart();
    }
    throw error;
  };

  return (
    <>
      {challenge.mfa === 'verify' ? (
        <MfaCodeForm
          schema={mfaCodeBodySchema}
          label="Authentication code"
          hint="The 6-digit code from your authenticator app, or one of your recovery codes."
          submitLabel="Verify"
          onCode={(code) =>
            verifyMfaCode({ mfaToken: challenge.mfaToken, code }).then(onSignedIn, restartIfExpired)
          }
        />
      ) : (
        <EnrolAtSignIn
          mfaToken={challenge.mfaToken}
          onSignedIn={onSignedIn}
          restartIfExpired={restartIfExpired}
        />
      )}
      <div className="text-center mt-3">
        <button type="button" className="btn btn-link btn-sm" onClick={onRestart}>
          Back to sign in
        </button>
      </div>
    </>
  );
}

function EnrolAtSignIn({
  mfaToken,
  onSignedIn,
  restartIfExpired,
}: {
  mfaToken: string;
  onSignedIn: (session: SignInSession) => void;
  restartIfExpired: (error: unknown) => never;
}) {
  const [setup, setSetup] = useState<MfaSetup | null>(null);
  const [enrolled, setEnrolled] = useState<EnrolledSession | null>(null);

  useEffect(() => {
    let live = true;
    startSignInEnrolment(mfaToken)
      .then((result) => {
        if (live) setSetup(result);
      })
      .catch((error: unknown) => {
        if (!live) return;
        if (!isExpired(error)) notify.error(signInFailureMessage(error));
        try {
          restartIfExpired(error);
        } catch {
          // Shown above (or by the restart); nothing else to do here.
        }
      });
    return () => {
      live = false;
    };
    // One secret per step token; the callbacks do not change what to fetch.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [mfaToken]);

  if (enrolled) {
    return (
      <>
        <p className="text-success fw-medium">{mfaMessages.enabled}.</p>
        <RecoveryCodes codes={enrolled.recoveryCodes} />
        <button type="button" className="btn btn-primary w-100" onClick={() => onSignedIn(enrolled)}>
          I have saved my recovery codes
        </button>
      </>
    );
  }
  if (!setup) return <p role="status">Preparing two-step sign-in...</p>;
  return (
    <>
      <p>Your organisation requires two-step sign-in. Set it up once to continue.</p>
      <TotpSetup setup={setup} />
      <MfaCodeForm
        schema={mfaConfirmBodySchema}
        label="Code from the app"
        hint="The 6-digit code your authenticator app shows now."
        submitLabel="Turn on and continue"
        onCode={(code) => confirmSignInEnrolment({ mfaToken, code }).then(setEnrolled, restartIfExpired)}
      />
    </>
  );
}
