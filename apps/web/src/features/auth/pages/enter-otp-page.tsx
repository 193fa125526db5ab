import { useForm } from 'react-hook-form';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { Link } from '#web/components/link.tsx';
import { zodResolver } from '@hookform/resolvers/zod';
import { accountMessages, otpFormSchema, type OtpForm } from '@app/contract/account';
import { paths } from '#web/lib/paths.ts';
import { CenteredCard } from '#web/components/centered-card.tsx';
import { FormField } from '#web/components/form-field.tsx';
import { notify } from '#web/lib/notify.ts';
import { useResendOtp } from '../api/resend-otp.ts';
import { useVerifyOtp } from '../api/verify-otp.ts';

/** The email the previous step put in navigation state, or null when the page was reached without it. */
export function emailFromState(state: unknown): string | null {
  const email = (state as { email?: unknown } | null)?.email;
  return typeof email === 'string' && email !== '' ? email : null;
}

/** /enter-otp: the emailed code; Verify OTP goes on to /reset-password/{token}, Resend OTP asks for a new one. */
export function EnterOtpPage() {
  const email = emailFromState(useLocation().state);
  if (!email) return <Navigate to={paths.forgotPassword.href()} replace />;
  return <EnterOtpForm email={email} />;
}

function EnterOtpForm({ email }: { email: string }) {
  const navigate = useNavigate();
  const verify = useVerifyOtp();
  const resend = useResendOtp();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<OtpForm>({ resolver: zodResolver(otpFormSchema), defaultValues: { otp: '' } });

  const onSubmit = async ({ otp }: OtpForm) => {
    try {
      const { data } = await verify.mutateAsync({ email, otp });
      notify.dismiss();
      void navigate(paths.resetPassword.href({ token: data.rememberToken }), {
        state: { email: data.email },
      });
    } catch {
      notify.error(accountMessages.otpInvalid);
    }
  };

  const onResend = async () => {
    try {
      await resend.mutateAsync({ email });
      notify.success(accountMessages.otpResent);
    } catch {
      notify.error(accountMessages.otpResendFailed);
    }
  };

  return (
    <CenteredCard title="Enter OTP">
      <p className="text-body-secondary text-center">
        We sent a 6-digit code to <strong className="text-break">{email}</strong>. It is valid for 10 minutes.
      </p>
      <form noValidate onSubmit={handleSubmit(onSubmit)}>
        <FormField
          label="OTP"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          className="otp-input text-center"
          error={errors.otp?.message}
          {...register('otp')}
        />
        <button type="submit" className="btn btn-primary w-100 mb-2" disabled={verify.isPending}>
          {verify.isPending ? 'Verifying...' : 'Verify OTP'}
        </button>
        <button
          type="button"
          className="btn btn-outline-secondary w-100 mb-3"
          disabled={resend.isPending}
          onClick={() => void onResend()}
        >
          {resend.isPending ? 'Sending...' : 'Resend OTP'}
        </button>
        <div className="text-center">
          <Link to={paths.forgotPassword.href()} className="small">
            Use another email
          </Link>
        </div>
      </form>
    </CenteredCard>
  );
}
