import { lazy, Suspense, useState } from 'react';
import type { MfaChallenge } from '@app/contract/auth';
import { Navigate, useNavigate } from 'react-router';
import { paths } from '#web/lib/paths.ts';
import { DeviceIcon } from '#web/components/base-icons.tsx';
import { notify } from '#web/lib/notify.ts';
import { startSession } from '#web/lib/session-store.ts';
import { useSession, useToken } from '#web/lib/use-session.ts';
import { SignInForm } from '../components/sign-in-form.tsx';
import type { SignInResult, SignInSession } from '../api/sign-in.ts';

// The second step loads only when the login answer asks for it: the first screen stays light (decision 010).
const MfaStep = lazy(() => import('../components/mfa-step.tsx').then((m) => ({ default: m.MfaStep })));

/** /login-admin, /login and /: docs/product.md §2.1 "Sign-in screen". */
export function SignInPage() {
  const token = useToken();
  const clinicUser = useSession((s) => s.details?.role?.type === 'clinic');
  const navigate = useNavigate();
  // Set with the new session so this page does not also send the admin to /admin/device.
  const [signedInHere, setSignedInHere] = useState(false);
  // Two-step sign-in: the password was right and a code (or enrolment) is due.
  const [challenge, setChallenge] = useState<MfaChallenge | null>(null);

  // A clinic user's session belongs in the clinic portal (decision 088).
  if (token && !signedInHere)
    return <Navigate to={clinicUser ? paths.clinic.href() : paths.devices.href()} replace />;

  const onSignedIn = (result: SignInResult) => {
    if ('mfa' in result) {
      notify.dismiss();
      setChallenge(result);
    } else enterConsole(result);
  };

  const enterConsole = ({ accessToken, admin }: SignInSession) => {
    setSignedInHere(true);
    // A failed attempt's toast is no longer true.
    notify.dismiss();
    startSession(admin, accessToken);
    void navigate(admin.role?.type === 'clinic' ? paths.clinic.href() : paths.dashboard.href());
  };

  return (
    <div className="auth-card card shadow-sm">
      <div className="card-body p-4 p-sm-5">
        <div className="text-center mb-4">
          <span className="brand-mark mb-3" aria-hidden="true">
            <DeviceIcon size={28} />
          </span>
          <h1 className="h3 mb-1">Sign In</h1>
          <p className="text-body-secondary mb-0">
            {challenge ? 'Two-step sign-in' : 'Device Admin Console'}
          </p>
        </div>
        {challenge ? (
          <Suspense fallback={<p role="status">Loading...</p>}>
            <MfaStep challenge={challenge} onSignedIn={enterConsole} onRestart={() => setChallenge(null)} />
          </Suspense>
        ) : (
          <SignInForm onSignedIn={onSignedIn} />
        )}
      </div>
    </div>
  );
}
