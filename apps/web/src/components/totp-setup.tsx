import { useId } from 'react';
import type { MfaSetup } from '@app/contract/mfa';

/**
 * Step one of enrolment: the QR code for an authenticator app, and the same secret as a key to type
 * in by hand (for a phone that cannot scan, or a screen reader user). Used at sign-in (REQUIRE_MFA)
 * and on the profile.
 */
export function TotpSetup({ setup }: { setup: MfaSetup }) {
  const keyLabel = useId();
  return (
    <div className="d-flex flex-column flex-sm-row gap-3 align-items-sm-center mb-3">
      <img
        src={setup.qrCode}
        width={168}
        height={168}
        className="border rounded bg-white flex-shrink-0"
        alt="QR code to scan with your authenticator app"
      />
      <div className="small">
        <p className="mb-2">
          Scan the QR code with an authenticator app (Google Authenticator, Microsoft Authenticator,
          1Password, ...), or enter the key by hand.
        </p>
        <p className="mb-1" id={keyLabel}>
          Key for manual entry
        </p>
        <code
          className="d-inline-block fs-6 text-break user-select-all"
          aria-labelledby={keyLabel}
          data-testid="mfa-manual-key"
        >
          {setup.manualKey}
        </code>
      </div>
    </div>
  );
}
