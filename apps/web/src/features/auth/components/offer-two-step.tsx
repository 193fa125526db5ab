import { useState } from 'react';
import { mfaConfirmBodySchema, mfaMessages, type MfaSetup } from '@app/contract/mfa';
import { RecoveryCodes } from '#web/components/recovery-codes.tsx';
import { TotpSetup } from '#web/components/totp-setup.tsx';
import { notifyError } from '#web/lib/api-client.ts';
import { confirmClinicTwoStep, startClinicTwoStep } from '../api/clinic-two-step.ts';
import { MfaCodeForm } from './mfa-code-form.tsx';

/**
 * After an invitation is accepted, when the clinic does not require it: two-step sign-in offered,
 * set up on the new session with the same steps as at sign-in, or left for now (decision 088).
 */
export function OfferTwoStep({ onDone }: { onDone: () => void }) {
  const [setup, setSetup] = useState<MfaSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [starting, setStarting] = useState(false);

  if (codes)
    return (
      <>
        <p className="text-success fw-medium">{mfaMessages.enabled}.</p>
        <RecoveryCodes codes={codes} />
        <button type="button" className="btn btn-primary w-100" onClick={onDone}>
          I have saved my recovery codes
        </button>
      </>
    );
  if (setup)
    return (
      <>
        <TotpSetup setup={setup} />
        <MfaCodeForm
          schema={mfaConfirmBodySchema}
          label="Code from the app"
          hint="The 6-digit code your authenticator app shows now."
          submitLabel="Turn on and continue"
          onCode={async (code) => setCodes(await confirmClinicTwoStep(code))}
        />
      </>
    );
  const start = async () => {
    setStarting(true);
    try {
      setSetup(await startClinicTwoStep());
    } catch (error) {
      notifyError(error);
    } finally {
      setStarting(false);
    }
  };
  return (
    <>
      <p className="text-success fw-medium">Your account is ready.</p>
      <p>
        Protect it with two-step sign-in: a code from an authenticator app on your phone, asked after your
        password.
      </p>
      <div className="d-grid gap-2">
        <button type="button" className="btn btn-primary" onClick={() => void start()} disabled={starting}>
          {starting ? 'Preparing...' : 'Set up two-step sign-in'}
        </button>
        <button type="button" className="btn btn-outline-secondary" onClick={onDone}>
          Not now, open the portal
        </button>
      </div>
    </>
  );
}
