import { useId, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { apiPaths } from '@app/contract/paths';
import { stepUpBodySchema, stepUpMessages, stepUpMinutes, type StepUpBody } from '@app/contract/step-up';
import { webMessages } from '@app/contract/web-messages';
import { FormField } from './form-field.tsx';
import { Modal } from './modal.tsx';

/*
 * The step-up dialog (docs/decisions/046): a dangerous action answered 403 "Confirm your password to
 * continue", so the API client (lib/step-up-prompt.ts) opens this over whatever the admin was doing,
 * sends the password (and code) here, and on success sends the original request again. Loaded on
 * the first such answer only. It renders in a React root of its own, so any screen's request can
 * ask without the screen knowing; the form underneath stays open, with its values, behind it.
 */

/** The API client's answer to the step-up, as plain data (this module cannot import the client: it loads this one). */
export type StepUpAnswer =
  | { ok: true }
  | {
      ok: false;
      msg: string;
      data: unknown;
      /** the client already told the admin (signed out) */ handled: boolean;
    };

export type StepUpRequest = {
  /** The admin's own two-step sign-in is on: ask for a code too. */
  needsCode: boolean;
  send: (path: string, body: StepUpBody) => Promise<StepUpAnswer>;
};

type Input = z.input<typeof stepUpBodySchema>;
type Field = keyof Input;

/** The field a refused step-up is about, from the server's `data.errors` (decision 004). */
function fieldOf(data: unknown): Field | null {
  const path = (data as { errors?: { path?: unknown }[] } | null)?.errors?.[0]?.path;
  return path === 'password' || path === 'code' ? path : null;
}

/** Opens the dialog; resolves true once the password is confirmed, false when the admin cancels. */
export function openStepUpDialog(request: StepUpRequest): Promise<boolean> {
  return new Promise((resolve) => {
    const host = document.createElement('div');
    document.body.append(host);
    const root = createRoot(host);
    const done = (confirmed: boolean) => {
      resolve(confirmed);
      // Not inside the click that closed it: React unmounts a root between renders.
      setTimeout(() => {
        root.unmount();
        host.remove();
      });
    };
    root.render(<StepUpDialog {...request} onDone={done} />);
  });
}

function StepUpDialog({ needsCode, send, onDone }: StepUpRequest & { onDone: (confirmed: boolean) => void }) {
  const formId = useId();
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState } = useForm<Input, unknown, StepUpBody>({
    resolver: zodResolver(stepUpBodySchema),
    defaultValues: { password: '', code: undefined },
  });

  const submit = handleSubmit(async (body) => {
    if (needsCode && !body.code) {
      setError('code', { message: stepUpMessages.codeRequired }, { shouldFocus: true });
      return;
    }
    setPending(true);
    setFailure(null);
    const answer = await send(apiPaths.profileStepUp, body);
    setPending(false);
    if (answer.ok) return onDone(true);
    // Signed out meanwhile (the client has said so and is leaving for the sign-in page).
    if (answer.handled) return onDone(false);
    const field = fieldOf(answer.data);
    const message = answer.msg || webMessages.genericError;
    // A wrong password or code goes under its field, to be typed again; anything else (429) above the form.
    if (field) setError(field, { message }, { shouldFocus: true });
    else setFailure(message);
  });

  return (
    <Modal
      show
      onClose={() => onDone(false)}
      title={stepUpMessages.required}
      staticBackdrop={pending}
      footer={
        <>
          <button
            type="button"
            className="btn btn-outline-secondary"
            onClick={() => onDone(false)}
            disabled={pending}
          >
            Cancel
          </button>
          <button type="submit" form={formId} className="btn btn-primary" disabled={pending}>
            {pending ? 'Confirming...' : 'Confirm'}
          </button>
        </>
      }
    >
      <p>
        This action needs your password{needsCode ? ' and a code from your authenticator app' : ''}. You will
        not be asked again for {stepUpMinutes} minutes.
      </p>
      {failure ? (
        <div className="alert alert-danger" role="alert">
          {failure}
        </div>
      ) : null}
      <form id={formId} noValidate onSubmit={submit}>
        <FormField
          label="Your password"
          type="password"
          autoComplete="current-password"
          error={formState.errors.password?.message}
          {...register('password')}
        />
        {needsCode ? (
          <FormField
            label="Your code"
            hint="From your authenticator app, or one of your recovery codes."
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
