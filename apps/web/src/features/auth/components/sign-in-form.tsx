import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Link } from '#web/components/link.tsx';
import type { LoginInput } from '@app/contract/sign-in';
import { paths } from '#web/lib/paths.ts';
import { EyeIcon, EyeOffIcon } from '#web/components/base-icons.tsx';
import { FormField } from '#web/components/form-field.tsx';
import { notify, preloadToasts } from '#web/lib/notify.ts';
import type { SignInResult } from '../api/sign-in.ts';
import type * as SubmitModule from './sign-in-submit.ts';
import type { SignInErrors } from './sign-in-submit.ts';

export type SignInFormProps = { onSignedIn: (result: SignInResult) => void };

type Field = keyof LoginInput;

// Validation and the request load on the first interaction, not with the screen (decision 009).
let submitModule: typeof SubmitModule | null = null;
let loadingSubmit: Promise<typeof SubmitModule> | null = null;
function loadSubmit() {
  loadingSubmit ??= import('./sign-in-submit.ts').then((module) => (submitModule = module));
  return loadingSubmit;
}

/*
 * A small controlled form instead of react-hook-form: this is the first screen, and RHF with its
 * resolver was a tenth of its JavaScript (docs/decisions/009-light-sign-in-form.md). It behaves as
 * the RHF forms do: validate on submit with the contract schema, then re-check a field as it
 * changes; focus the first field in error; the button is disabled while the request runs.
 * Every other form keeps RHF.
 */
export function SignInForm({ onSignedIn }: SignInFormProps) {
  const [showPassword, setShowPassword] = useState(false);
  const [values, setValues] = useState<LoginInput>({ email: '', password: '' });
  const [errors, setErrors] = useState<SignInErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const [isSubmitting, setSubmitting] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const field = event.target.name as Field;
    const next = { ...values, [field]: event.target.value };
    setValues(next);
    // After a submit the module is loaded: it validated that submit.
    if (submitted && submitModule) {
      const message = submitModule.validateSignIn(next).errors[field];
      setErrors((current) => ({ ...current, [field]: message }));
    }
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isSubmitting) return;
    setSubmitting(true);
    try {
      const { validateSignIn, signIn, signInFailureMessage } = await loadSubmit();
      setSubmitted(true);
      const { data, errors: found } = validateSignIn(values);
      setErrors(found);
      if (!data) {
        (found.email ? emailRef : passwordRef).current?.focus();
        return;
      }
      // A failed attempt toasts: fetch the toasts alongside the request rather than after it.
      void preloadToasts();
      try {
        onSignedIn(await signIn(data));
      } catch (error) {
        notify.error(signInFailureMessage(error));
      }
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      onFocus={() => void loadSubmit()}
      onPointerDown={() => void loadSubmit()}
      onKeyDown={() => void loadSubmit()}
    >
      <FormField
        ref={emailRef}
        label="Email"
        type="email"
        name="email"
        autoComplete="username"
        inputMode="email"
        value={values.email}
        onChange={onChange}
        error={errors.email}
      />
      <FormField
        ref={passwordRef}
        label="Password"
        type={showPassword ? 'text' : 'password'}
        name="password"
        autoComplete="current-password"
        value={values.password}
        onChange={onChange}
        error={errors.password}
        wrapperClassName="mb-2"
        append={
          <button
            type="button"
            className="btn btn-outline-secondary password-toggle"
            aria-label="Show password"
            aria-pressed={showPassword}
            title={showPassword ? 'Hide password' : 'Show password'}
            onClick={() => setShowPassword((shown) => !shown)}
          >
            {showPassword ? <EyeOffIcon size={18} /> : <EyeIcon size={18} />}
          </button>
        }
      />
      <div className="d-flex justify-content-end mb-4">
        <Link to={paths.forgotPassword.href()} className="small">
          Forgot password?
        </Link>
      </div>
      <button type="submit" className="btn btn-primary w-100" disabled={isSubmitting}>
        {isSubmitting ? 'Signing in...' : 'Sign In'}
      </button>
    </form>
  );
}
