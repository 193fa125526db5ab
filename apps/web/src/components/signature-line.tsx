import { signatureMessages, type Signature } from '@app/contract/signatures';
import { formatDateTime } from '../lib/format.ts';
import { notify } from '../lib/notify.ts';

/** How many hex digits of the content hash the line shows; the whole hash is copied and read out. */
const shownDigits = 12;

async function copy(text: string) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * One electronic signature as a record shows it (decision 083; Part 11 §11.50): "Signed by <printed
 * name> · <time> · <meaning>", and the hash of what was signed, shortened on screen; a screen
 * reader reads it whole, and the button copies it whole (or shows it where the clipboard is not
 * allowed) so it can be compared with the record.
 */
export function SignatureLine({ signature }: { signature: Signature }) {
  const { signerName, signerEmail, signedAt, meaning, contentHash } = signature;
  return (
    <div className="small d-flex flex-wrap align-items-center gap-1" data-testid="signature-line">
      <span title={signerEmail}>{signatureMessages.line(signerName, formatDateTime(signedAt), meaning)}</span>
      <span aria-hidden="true">·</span>
      <span className="text-body-secondary">
        <span aria-hidden="true">
          SHA-256 <code className="text-body-secondary">{contentHash.slice(0, shownDigits)}…</code>
        </span>
        <span className="visually-hidden">Content hash {contentHash}</span>
      </span>
      <button
        type="button"
        className="btn btn-link btn-sm p-0 align-baseline"
        aria-label={`Copy the content hash of ${signerName}'s signature`}
        title={contentHash}
        onClick={async () => {
          if (await copy(contentHash)) notify.success('Hash copied');
          else notify.info(contentHash, { duration: 15_000 });
        }}
      >
        Copy
      </button>
    </div>
  );
}

/** A record's signatures, oldest first; nothing when it has none. */
export function SignatureLines({ signatures }: { signatures: readonly Signature[] }) {
  if (signatures.length === 0) return null;
  return (
    <ul className="list-unstyled mb-0" aria-label="Signatures">
      {signatures.map((s) => (
        <li key={s.id}>
          <SignatureLine signature={s} />
        </li>
      ))}
    </ul>
  );
}
