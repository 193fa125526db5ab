import { useId, useState } from 'react';

/**
 * Recovery codes, shown once after they are made: each signs in once when the phone is lost.
 * The list is copied as plain lines; nothing keeps the codes after this screen.
 */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const [copied, setCopied] = useState(false);
  const heading = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      setCopied(true);
    } catch {
      // No clipboard (insecure origin, denied): the codes are on screen to copy by hand.
    }
  };
  return (
    <section aria-labelledby={heading} className="mb-3">
      <h2 id={heading} className="h6">
        Recovery codes
      </h2>
      <p className="small mb-2">
        Keep these somewhere safe. Each one signs you in once if you lose your phone. They will not be shown
        again.
      </p>
      <ol
        className="recovery-codes list-unstyled row row-cols-2 g-1 font-monospace mb-2"
        data-testid="mfa-recovery-codes"
      >
        {codes.map((code) => (
          <li key={code} className="col">
            {code}
          </li>
        ))}
      </ol>
      <button type="button" className="btn btn-outline-secondary btn-sm" onClick={() => void copy()}>
        {copied ? 'Copied' : 'Copy codes'}
      </button>
      <span className="visually-hidden" role="status">
        {copied ? 'Recovery codes copied' : ''}
      </span>
    </section>
  );
}
