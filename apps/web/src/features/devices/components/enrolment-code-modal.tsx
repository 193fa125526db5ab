import { useRef } from 'react';
import type { EnrolmentCode } from '@app/contract/device-enrolment';
import { Modal } from '#web/components/modal.tsx';
import { formatDateTime } from '#web/lib/format.ts';

export type EnrolmentCodeModalProps = {
  /** The code just issued; null closes the modal (the code is then gone for good). */
  code: EnrolmentCode | null;
  machineNumber: string;
  /** The machine holds a live credential: it keeps it until it enrols with this code. */
  enrolled: boolean;
  onClose: () => void;
};

/**
 * The one time an enrolment code is shown: the code to type in the machine's app and the same code
 * as a QR code for its camera. A click outside or Escape does not close it, so it is not lost by accident.
 */
export function EnrolmentCodeModal({ code, machineNumber, enrolled, onClose }: EnrolmentCodeModalProps) {
  // Focus lands on the code so a screen reader reads it first.
  const codeRef = useRef<HTMLParagraphElement>(null);
  return (
    <Modal
      show={code !== null}
      onClose={onClose}
      title={`Enrolment code for ${machineNumber}`}
      staticBackdrop
      initialFocus={codeRef}
      footer={
        <button type="button" className="btn btn-primary" onClick={onClose}>
          Done
        </button>
      }
    >
      {code ? (
        <div className="text-center">
          <p
            ref={codeRef}
            tabIndex={-1}
            className="font-monospace fs-2 fw-semibold mb-3 user-select-all enrolment-code"
            data-testid="enrolment-code"
          >
            {code.code}
          </p>
          {/* An <img> never runs script, even in SVG markup: the safe way to show the server's QR. */}
          <div
            role="img"
            aria-label={`QR code of enrolment code ${code.code}`}
            className="d-inline-block border rounded bg-white p-2 mb-3"
          >
            <img
              src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(code.qrSvg)}`}
              alt=""
              width={200}
              height={200}
              className="d-block"
            />
          </div>
          <p className="mb-2">
            Expires <strong>{formatDateTime(code.expiresAt)}</strong>. It works once.
          </p>
          <p className="mb-0 text-body-secondary small">
            Type the code or scan the QR code in the machine&apos;s app now: this code is shown only once and
            cannot be displayed again. If it is lost, issue a new one.
            {enrolled ? ' The machine keeps its current credential until it enrols with this code.' : null}
          </p>
        </div>
      ) : null}
    </Modal>
  );
}
