import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { loginBodySchema, signInMessages, type LoginBody } from '@app/contract/auth';
import { EyeIcon, EyeOffIcon } from '../../../components/icons.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/notify.ts';
import { signIn, type SignInResult } from '../api/sign-in.ts';

/** SPEC 8: the server msg, else the error's message, else 'Please check your email and password.' */
export function signInFailureMessage(error: unknown) {
  if (error instanceof ApiError && error.msg) return error.msg;
  if (error instanceof Error && error.message) return error.message;
  return signInMessages.failed;
}

export type SignInFormProps = { onSignedIn: (result: SignInResult) => void };

export function SignInForm({ onSignedIn }: SignInFormProps) {
  const [showPassword, setShowPassword] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof loginBodySchema>, unknown, LoginBody>({
    resolver: zodResolver(loginBodySchema),
    defaultValues: { email: '', password: '' },
  });

  const onSubmit = async (body: LoginBody) => {
    try {
      onSignedIn(await signIn(body));
    } catch (error) {
      notify.error(signInFailureMessage(error));
    }
  };

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)}>
      <FormField
        label="Email"
        type="email"
        autoComplete="username"
        inputMode="email"
        error={errors.email?.message}
        {...register('email')}
      />
      <FormField
        label="Password"
        type={showPassword ? 'text' : 'password'}
        autoComplete="current-password"
        error={errors.password?.message}
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
        {...register('password')}
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
