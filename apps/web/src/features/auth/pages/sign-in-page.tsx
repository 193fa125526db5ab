import { useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { DeviceIcon } from '../../../components/icons.tsx';
import { notify } from '../../../lib/notify.ts';
import { startSession, useToken } from '../../../lib/session-store.ts';
import { SignInForm } from '../components/sign-in-form.tsx';
import type { SignInResult } from '../api/sign-in.ts';

/** /login-admin, /login and /: SPEC 2 "Sign-in screen". */
export function SignInPage() {
  const token = useToken();
  const navigate = useNavigate();
  // Set with the new session so this page does not also send the admin to /admin/device.
  const [signedInHere, setSignedInHere] = useState(false);

  if (token && !signedInHere) return <Navigate to="/admin/device" replace />;

  const onSignedIn = ({ accessToken, admin }: SignInResult) => {
    setSignedInHere(true);
    // A failed attempt's toast is no longer true.
    notify.dismiss();
    startSession(admin, accessToken);
    void navigate('/admin/dashboard');
  };

  return (
    <div className="auth-card card shadow-sm">
      <div className="card-body p-4 p-sm-5">
        <div className="text-center mb-4">
          <span className="brand-mark mb-3" aria-hidden="true">
            <DeviceIcon size={28} />
          </span>
          <h1 className="h3 mb-1">Sign In</h1>
          <p className="text-body-secondary mb-0">Device Admin Console</p>
        </div>
        <SignInForm onSignedIn={onSignedIn} />
      </div>
    </div>
  );
}
