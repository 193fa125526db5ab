import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { Link } from '#web/components/link.tsx';
import { zodResolver } from '@hookform/resolvers/zod';
import { accountMessages, forgotPasswordBodySchema, type ForgotPasswordBody } from '@app/contract/account';
import { paths } from '#web/lib/paths.ts';
import { CenteredCard } from '#web/components/centered-card.tsx';
import { FormField } from '#web/components/form-field.tsx';
import { notify } from '#web/lib/notify.ts';
import { useForgotPassword } from '../api/forgot-password.ts';

export type OtpNavigationState = { email: string };

/** /forgot-password: the email, then /enter-otp with the email in navigation state (docs/product.md §2.2, §5.2, §8). */
export function ForgotPasswordPage() {
  const navigate = useNavigate();
  const forgot = useForgotPassword();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ForgotPasswordBody>({
    resolver: zodResolver(forgotPasswordBodySchema),
    defaultValues: { email: '' },
  });

  const onSubmit = async ({ email }: ForgotPasswordBody) => {
    try {
      const response = await forgot.mutateAsync({ email });
      notify.success(response.msg || accountMessages.otpSent);
      void navigate(paths.enterOtp.href(), { state: { email } satisfies OtpNavigationState });
    } catch {
      notify.error(accountMessages.forgotFailed);
    }
  };

  return (
    <CenteredCard title="Forgot Password">
      <p className="text-body-secondary text-center">
        Enter the email of your account and we will send you a 6-digit code.
      </p>
      <form noValidate onSubmit={handleSubmit(onSubmit)}>
        <FormField
          label="Email"
          type="email"
          autoComplete="email"
          inputMode="email"
          error={errors.email?.message}
          {...register('email')}
        />
        <button type="submit" className="btn btn-primary w-100 mb-3" disabled={forgot.isPending}>
          {forgot.isPending ? 'Sending...' : 'Send OTP'}
        </button>
        <div className="text-center">
          <Link to={paths.signIn.href()} className="small">
            Back to sign in
          </Link>
        </div>
      </form>
    </CenteredCard>
  );
}
