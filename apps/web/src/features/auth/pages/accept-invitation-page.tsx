import { lazy, Suspense, useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  acceptInvitationFormSchema,
  type AcceptInvitationForm,
  type Invitation,
} from '@app/contract/clinic-users';
import { clinicRoleLabels } from '@app/contract/clinic-users-texts';
import type { MfaChallenge } from '@app/contract/auth';
import { CenteredCard } from '#web/components/centered-card.tsx';
import { FormField } from '#web/components/form-field.tsx';
import { Link } from '#web/components/link.tsx';
import { errorMessage, notifyError } from '#web/lib/api-client.ts';
import { paths } from '#web/lib/paths.ts';
import { startSession } from '#web/lib/session-store.ts';
import { acceptInvitation } from '../api/accept-invitation.ts';
import { getInvitation } from '../api/get-invitation.ts';
import type { SignInSession } from '../api/sign-in.ts';
import { OfferTwoStep } from '../components/offer-two-step.tsx';

const MfaStep = lazy(() => import('../components/mfa-step.tsx').then((m) => ({ default: m.MfaStep })));

type Loaded =
  { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; invitation: Invitation };

/**
 * /invite/{token} (decision 088), no sign-in: the clinic a user is invited to, their name and a
 * password; then two-step sign-in, required before the portal when the clinic requires it, offered
 * otherwise. A used, replaced or expired link says so.
 */
export function AcceptInvitationPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [challenge, setChallenge] = useState<MfaChallenge | null>(null);
  const [signedIn, setSignedIn] = useState(false);

  useEffect(() => {
    const abort = new AbortController();
    getInvitation(token, abort.signal).then(
      (invitation) => setLoaded({ state: 'ready', invitation }),
      (error: unknown) => {
        if (!abort.signal.aborted) setLoaded({ state: 'failed', message: errorMessage(error) });
      },
    );
    return () => abort.abort();
  }, [token]);

  const enterPortal = () => void navigate(paths.clinic.href(), { replace: true });
  const onSession = ({ accessToken, admin }: SignInSession) => startSession(admin, accessToken);

  if (loaded.state === 'loading')
    return (
      <CenteredCard title="Invitation">
        <p role="status">Loading the invitation...</p>
      </CenteredCard>
    );
  if (loaded.state === 'failed')
    return (
      <CenteredCard title="Invitation">
        <p role="alert">{loaded.message}</p>
        <Link to={paths.signIn.href()}>Go to sign in</Link>
      </CenteredCard>
    );
  const { invitation } = loaded;
  return (
    <CenteredCard title={`Join ${invitation.customerName}`}>
      {challenge ? (
        <Suspense fallback={<p role="status">Loading...</p>}>
          <MfaStep
            challenge={challenge}
            onSignedIn={(session) => {
              onSession(session);
              enterPortal();
            }}
            onRestart={() => void navigate(paths.signIn.href())}
          />
        </Suspense>
      ) : signedIn ? (
        <OfferTwoStep onDone={enterPortal} />
      ) : (
        <InvitationForm
          invitation={invitation}
          onAccepted={(result) => {
            if ('mfa' in result) setChallenge(result);
            else {
              onSession(result);
              setSignedIn(true);
            }
          }}
          token={token}
        />
      )}
    </CenteredCard>
  );
}

function InvitationForm({
  invitation,
  token,
  onAccepted,
}: {
  invitation: Invitation;
  token: string;
  onAccepted: (result: Awaited<ReturnType<typeof acceptInvitation>>) => void;
}) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<AcceptInvitationForm>({
    resolver: zodResolver(acceptInvitationFormSchema),
    defaultValues: { firstName: '', lastName: '', password: '', confirmPassword: '' },
  });
  const submit = async ({ confirmPassword: _, ...body }: AcceptInvitationForm) => {
    try {
      onAccepted(await acceptInvitation(token, body));
    } catch (error) {
      notifyError(error);
    }
  };
  return (
    <>
      <p className="text-body-secondary text-center">
        You are invited as {clinicRoleLabels[invitation.role].toLowerCase()} of {invitation.customerName}. Set
        your password to sign in as <strong className="text-break">{invitation.email}</strong>.
        {invitation.requireMfa ? ' This clinic requires two-step sign-in: you set it up next.' : ''}
      </p>
      <form noValidate onSubmit={handleSubmit(submit)}>
        <FormField
          label="First Name"
          autoComplete="given-name"
          error={errors.firstName?.message}
          {...register('firstName')}
        />
        <FormField
          label="Last Name"
          autoComplete="family-name"
          error={errors.lastName?.message}
          {...register('lastName')}
        />
        <FormField
          label="Password"
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
        <button type="submit" className="btn btn-primary w-100" disabled={isSubmitting}>
          {isSubmitting ? 'Saving...' : 'Set password and sign in'}
        </button>
      </form>
    </>
  );
}
