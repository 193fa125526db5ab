import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Link } from 'react-router';
import { loginBodySchema, signInMessages, type LoginBody, type LoginInput } from '@app/contract/sign-in';
import { EyeIcon, EyeOffIcon } from '../../../components/icons.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { notify, preloadToasts } from '../../../lib/notify.ts';
import { signIn, type SignInResult } from '../api/sign-in.ts';

/** SPEC 8: the server msg, else the error's message, else 'Please check your email and password.' */
export function signInFailureMessage(error: unknown) {
  if (error instanceof ApiError && error.msg) return error.msg;
  if (error instanceof Error && error.message) return error.message;
  return signInMessages.failed;
}

export type SignInFormProps = { onSignedIn: (result: SignInResult) => void };

type Field = keyof LoginInput;
type Errors = Partial<Record<Field, string>>;

/** The contract schema's first message for each field (none when the values are valid). */
function validate(values: LoginInput): { data?: LoginBody; errors: Errors } {
  const result = loginBodySchema.safeParse(values);
  if (result.success) return { data: result.data, errors: {} };
  const errors: Errors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as Field;
    errors[field] ??= issue.message;
  }
  return { errors };
}

/*
 * A small controlled form instead of react-hook-form: this is the first screen, and RHF with its
 * resolver was a tenth of its JavaScript (docs/decisions/007-light-sign-in-form.md). It behaves as
 * the RHF forms do: validate on submit, then re-check a field as it changes; focus the first field
 * in error; the button is disabled while the request runs. Every other form keeps RHF.
 */
export function SignInForm({ onSignedIn }: SignInFormProps) {
  const [showPassword, setShowPassword] = useState(false);
  const [values, setValues] = useState<LoginInput>({ email: '', password: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [submitted, setSubmitted] = useState(false);
  const [isSubmitting, setSubmitting] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const field = event.target.name as Field;
    const next = { ...values, [field]: event.target.value };
    setValues(next);
    if (submitted) setErrors((current) => ({ ...current, [field]: validate(next).errors[field] }));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isSubmitting) return;
    setSubmitted(true);
    const { data, errors: found } = validate(values);
    setErrors(found);
    if (!data) {
      (found.email ? emailRef : passwordRef).current?.focus();
      return;
    }
    // A failed attempt toasts: fetch the toasts alongside the request rather than after it.
    void preloadToasts();
    setSubmitting(true);
    try {
      onSignedIn(await signIn(data));
    } catch (error) {
      notify.error(signInFailureMessage(error));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)}>
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
        <Link to="/forgot-password" className="small">
          Forgot password?
        </Link>
      </div>
      <button type="submit" className="btn btn-primary w-100" disabled={isSubmitting}>
        {isSubmitting ? 'Signing in...' : 'Sign In'}
      </button>
    </form>
  );
}
