import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { zodResolver } from '@hookform/resolvers/zod';
import { accountMessages, resetPasswordFormSchema, type ResetPasswordForm } from '@app/contract/account';
import { paths } from '#web/lib/paths.ts';
import { CenteredCard } from '#web/components/centered-card.tsx';
import { FormField } from '#web/components/form-field.tsx';
import { notify } from '#web/lib/notify.ts';
import { useResetPassword } from '../api/reset-password.ts';
import { emailFromState } from './enter-otp-page.tsx';

/** docs/product.md §9: after a successful reset, wait 2 seconds, then go to sign-in. */
export const RESET_REDIRECT_MS = 2000;

/** /reset-password/{token}: the new password twice; the email comes in navigation state from /enter-otp. */
export function ResetPasswordPage() {
  const { token = '' } = useParams();
  const email = emailFromState(useLocation().state);
  if (!email || !token) return <Navigate to={paths.forgotPassword.href()} replace />;
  return <ResetPasswordFormCard token={token} email={email} />;
}

function ResetPasswordFormCard({ token, email }: { token: string; email: string }) {
  const navigate = useNavigate();
  const reset = useResetPassword();
  const [done, setDone] = useState(false);
  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => void navigate(paths.signIn.href(), { replace: true }), RESET_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [done, navigate]);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ResetPasswordForm>({
    resolver: zodResolver(resetPasswordFormSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });

  const onSubmit = async ({ password }: ResetPasswordForm) => {
    try {
      const response = await reset.mutateAsync({ rememberToken: token, password, email });
      notify.success(response.msg || accountMessages.passwordReset);
      setDone(true);
    } catch {
      notify.error(accountMessages.resetFailed);
    }
  };

  return (
    <CenteredCard title="Reset Password">
      <p className="text-body-secondary text-center">
        Choose a new password for <strong className="text-break">{email}</strong>.
      </p>
      <form noValidate onSubmit={handleSubmit(onSubmit)}>
        <FormField
          label="New Password"
          type="password"
          autoComplete="new-password"
          error={errors.password?.message}
          {...register('password')}
        />
        <FormField
          label="Confirm Password"
          type="password"
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...register('confirmPassword')}
        />
        <button type="submit" className="btn btn-primary w-100" disabled={reset.isPending || done}>
          {reset.isPending ? 'Saving...' : done ? 'Redirecting to sign in...' : 'Reset Password'}
        </button>
      </form>
    </CenteredCard>
  );
}
