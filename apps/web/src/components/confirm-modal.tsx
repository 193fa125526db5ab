import { useRef } from 'react';
import { Modal } from './modal.tsx';

export type ConfirmModalProps = {
  show: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  title?: string;
  text?: string;
  isPending?: boolean;
  confirmText?: string;
  cancelText?: string;
  pendingText?: string;
};

/** docs/product.md §2.11 delete confirmation: 'Remove Data', No / Yes, Yes reads 'Deleting...' while pending. */
export function ConfirmModal({
  show,
  onConfirm,
  onCancel,
  title = 'Remove Data',
  text = 'Are you sure you want to delete this?',
  isPending = false,
  confirmText = 'Yes',
  cancelText = 'No',
  pendingText = 'Deleting...',
}: ConfirmModalProps) {
  // The safe answer gets focus first.
  const cancel = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      show={show}
      onClose={onCancel}
      title={title}
      size="sm"
      staticBackdrop={isPending}
      initialFocus={cancel}
      footer={
        <>
          <button
            ref={cancel}
            type="button"
            className="btn btn-outline-secondary"
            onClick={onCancel}
            disabled={isPending}
          >
            {cancelText}
          </button>
          <button type="button" className="btn btn-danger" onClick={onConfirm} disabled={isPending}>
            {isPending ? pendingText : confirmText}
          </button>
        </>
      }
    >
      <p className="mb-0">{text}</p>
    </Modal>
  );
}
