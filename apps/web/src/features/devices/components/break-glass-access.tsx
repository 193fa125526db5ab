import { useEffect, useState } from 'react';
import type { BreakGlassGrant } from '@app/contract/break-glass';
import { breakGlassTexts } from '@app/contract/break-glass-texts';
import type { Patient } from '@app/contract/device-users';
import { formatDateTime } from '#web/lib/format.ts';
import { BreakGlassModal } from './break-glass-modal.tsx';

/**
 * The patient page's break-glass (decision 082), for an admin whose role cannot reveal (`offered`):
 * the button and its dialog; once granted, the patient unmasked in this page's state only, with
 * when the access ends, and masked again when it does. The end is the server's window counted from
 * the answer (never the browser's clock against the server's), and hiding it sends no request.
 */
export function useBreakGlassAccess(patient: Patient | null | undefined, offered: boolean) {
  const [grant, setGrant] = useState<BreakGlassGrant | null>(null);
  const [ended, setEnded] = useState(false);
  const [asking, setAsking] = useState(false);
  useEffect(() => {
    if (!grant) return;
    const windowMs = Date.parse(grant.access.expiresAt) - Date.parse(grant.access.declaredAt);
    const timer = setTimeout(() => {
      setGrant(null);
      setEnded(true);
    }, windowMs);
    return () => clearTimeout(timer);
  }, [grant]);

  const current = grant && patient && grant.patient._id === patient._id ? grant : null;
  const shown = current ? current.patient : patient;
  const action =
    offered && patient && !current ? (
      <>
        <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => setAsking(true)}>
          {breakGlassTexts.button}
        </button>
        <BreakGlassModal
          patientId={patient._id}
          show={asking}
          onClose={() => setAsking(false)}
          onGranted={(granted) => {
            setEnded(false);
            setGrant(granted);
          }}
        />
      </>
    ) : null;
  const notice = current ? (
    <div className="alert alert-warning" role="status">
      {breakGlassTexts.endsAt(formatDateTime(current.access.expiresAt))}
    </div>
  ) : ended ? (
    <div className="alert alert-secondary" role="status">
      {breakGlassTexts.ended}
    </div>
  ) : null;
  return { shown, action, notice };
}
