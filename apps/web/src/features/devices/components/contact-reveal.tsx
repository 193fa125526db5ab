import { useState } from 'react';
import type { Doctor, Patient } from '@app/contract/device-users';
import { revealMessages } from '@app/contract/masking';
import { useCan } from '#web/lib/use-session.ts';
import type { RevealKind } from '../api/reveal-contact.ts';
import { RevealContactModal } from './reveal-contact-modal.tsx';

type RecordOf<K extends RevealKind> = K extends 'patient' ? Patient : Doctor;

/**
 * A record as the page shows it: masked as the list and detail answers carry it, or as revealed by
 * this admin in this view (kept in the page's state only, gone when the admin leaves or opens another
 * record). With `action`, the Reveal button and its dialog for an admin who may reveal.
 */
export function useContactReveal<K extends RevealKind>(kind: K, record: RecordOf<K> | null | undefined) {
  const mayReveal = useCan('patients.reveal');
  const [revealed, setRevealed] = useState<RecordOf<K> | null>(null);
  const [asking, setAsking] = useState(false);
  const shown = revealed && record && revealed._id === record._id ? revealed : record;
  const action =
    record && mayReveal && shown?.contactMasked ? (
      <>
        <button type="button" className="btn btn-sm btn-outline-primary" onClick={() => setAsking(true)}>
          {revealMessages.reveal}
        </button>
        <RevealContactModal
          kind={kind}
          id={record._id}
          show={asking}
          onClose={() => setAsking(false)}
          onRevealed={(r) => setRevealed(r as RecordOf<K>)}
        />
      </>
    ) : null;
  return { shown, action, mayReveal };
}
