import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import {
  mfaCodeBodySchema,
  mfaConfirmBodySchema,
  mfaDisableBodySchema,
  mfaMessages,
  type MfaSetup,
} from '@app/contract/mfa';
import { FormField } from '#web/components/form-field.tsx';
import { RecoveryCodes } from '#web/components/recovery-codes.tsx';
import { SectionCard } from '#web/components/section-card.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { TotpSetup } from '#web/components/totp-setup.tsx';
import { errorMessage, notifyError } from '#web/lib/api-client.ts';
import { notify } from '#web/lib/notify.ts';
import { useConfirmMfa } from '../api/confirm-mfa.ts';
import { useDisableMfa } from '../api/disable-mfa.ts';
import { useMfaStatus } from '../api/get-mfa-status.ts';
import { useRenewRecoveryCodes } from '../api/renew-recovery-codes.ts';
import { useStartMfaSetup } from '../api/start-mfa-setup.ts';

type Panel = 'none' | 'renew' | 'disable';

/**
 * Two-step sign-in on the profile: set up (QR code, manual key, confirm with a code, recovery codes
 * shown once), and when on: new recovery codes (a code) or turn off (password and a code).
 */
export function TwoStepCard() {
  const status = useMfaStatus();
  const start = useStartMfaSetup();
  const [setup, setSetup] = useState<MfaSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [panel, setPanel] = useState<Panel>('none');

  const begin = () =>
    start.mutate(undefined, {
      onSuccess: (result) => setSetup(result),
      onError: (error) => notifyError(error),
    });

  let body;
  if (status.isPending) body = <Spinner />;
  else if (status.isError) body = <p className="mb-0">{errorMessage(status.error)}</p>;
  else if (codes)
    body = (
      <>
        <RecoveryCodes codes={codes} />
        <button type="button" className="btn btn-primary" onClick={() => setCodes(null)}>
          Done
        </button>
      </>
    );
  else if (setup)
    body = (
      <ConfirmSetup
        setup={setup}
        onDone={(recovery) => {
          setSetup(null);
          setCodes(recovery);
        }}
        onCancel={() => setSetup(null)}
      />
    );
  else if (!status.data.enabled)
    body = (
      <>
        <p>Off. Sign-in asks only for your password. Add a code from an authenticator app on your phone.</p>
        <button type="button" className="btn btn-primary" onClick={begin} disabled={start.isPending}>
          Set up two-step sign-in
        </button>
      </>
    );
  else
    body = (
      <>
        <p>
          <span className="badge text-bg-success me-2">On</span>
          Sign-in asks for a code from your authenticator app. {status.data.recoveryCodesLeft} of 10 recovery
          codes left.
        </p>
        <div className="d-flex flex-wrap gap-2 mb-3">
          <button
            type="button"
            className="btn btn-outline-primary"
            aria-expanded={panel === 'renew'}
            onClick={() => setPanel(panel === 'renew' ? 'none' : 'renew')}
          >
            New recovery codes
          </button>
          {status.data.required ? null : (
            <button
              type="button"
              className="btn btn-outline-danger"
              aria-expanded={panel === 'disable'}
              onClick={() => setPanel(panel === 'disable' ? 'none' : 'disable')}
            >
              Turn off two-step sign-in
            </button>
          )}
        </div>
        {panel === 'renew' ? (
          <RenewCodes
            onDone={(recovery) => {
              setPanel('none');
              setCodes(recovery);
            }}
          />
        ) : null}
        {panel === 'disable' ? <DisableForm onDone={() => setPanel('none')} /> : null}
      </>
    );

  return <SectionCard title="Two-step sign-in">{body}</SectionCard>;
}

/** The server's message for a refused code goes under the field it is about. */
function useCodeForm<S extends z.ZodType<{ code: string }, { code: string }>>(schema: S) {
  return useForm<{ code: string }>({ resolver: zodResolver(schema), defaultValues: { code: '' } });
}

function ConfirmSetup({
  setup,
  onDone,
  onCancel,
}: {
  setup: MfaSetup;
  onDone: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const confirm = useConfirmMfa();
  const { register, handleSubmit, setError, formState } = useCodeForm(mfaConfirmBodySchema);
  const submit = handleSubmit(async ({ code }) => {
    try {
      const recovery = await confirm.mutateAsync(code);
      notify.success(mfaMessages.enabled);
      onDone(recovery);
    } catch (error) {
      setError('code', { message: errorMessage(error) }, { shouldFocus: true });
    }
  });
  return (
    <>
      <TotpSetup setup={setup} />
      <form noValidate onSubmit={submit} style={{ maxWidth: 360 }}>
        <FormField
          label="Code from the app"
          hint="Enter the 6-digit code your app shows to turn two-step sign-in on."
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={32}
          error={formState.errors.code?.message}
          {...register('code')}
        />
        <div className="d-flex gap-2">
          <button type="submit" className="btn btn-primary" disabled={confirm.isPending}>
            {confirm.isPending ? 'Checking...' : 'Turn on'}
          </button>
          <button type="button" className="btn btn-outline-secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </>
  );
}

function RenewCodes({ onDone }: { onDone: (codes: string[]) => void }) {
  const renew = useRenewRecoveryCodes();
  const { register, handleSubmit, setError, formState } = useCodeForm(mfaCodeBodySchema);
  const submit = handleSubmit(async ({ code }) => {
    try {
      const recovery = await renew.mutateAsync(code);
      notify.success(mfaMessages.recoveryCodesRenewed);
      onDone(recovery);
    } catch (error) {
      setError('code', { message: errorMessage(error) }, { shouldFocus: true });
    }
  });
  return (
    <form noValidate onSubmit={submit} style={{ maxWidth: 360 }}>
      <FormField
        label="Current code"
        hint="From your authenticator app."
        autoComplete="one-time-code"
        maxLength={32}
        error={formState.errors.code?.message}
        {...register('code')}
      />
      <button type="submit" className="btn btn-primary" disabled={renew.isPending}>
        {renew.isPending ? 'Creating...' : 'Create new recovery codes'}
      </button>
    </form>
  );
}

type DisableInput = z.input<typeof mfaDisableBodySchema>;

function DisableForm({ onDone }: { onDone: () => void }) {
  const disable = useDisableMfa();
  const { register, handleSubmit, setError, formState } = useForm<DisableInput>({
    resolver: zodResolver(mfaDisableBodySchema),
    defaultValues: { password: '', code: '' },
  });
  const submit = handleSubmit(async (body) => {
    try {
      await disable.mutateAsync(body);
      notify.success(mfaMessages.disabled);
      onDone();
    } catch (error) {
      const message = errorMessage(error);
      setError(
        message === mfaMessages.passwordWrong ? 'password' : 'code',
        { message },
        { shouldFocus: true },
      );
    }
  });
  return (
    <form noValidate onSubmit={submit} style={{ maxWidth: 360 }}>
      <FormField
        label="Password"
        type="password"
        autoComplete="current-password"
        error={formState.errors.password?.message}
        {...register('password')}
      />
      <FormField
        label="Current code"
        hint="From your authenticator app, or a recovery code."
        autoComplete="one-time-code"
        maxLength={32}
        error={formState.errors.code?.message}
        {...register('code')}
      />
      <button type="submit" className="btn btn-danger" disabled={disable.isPending}>
        {disable.isPending ? 'Turning off...' : 'Turn off'}
      </button>
    </form>
  );
}
