/** The save button submits the `<form>` of this id (its fields and checks live there) or calls onSubmit. */
type Submit = { form: string } | { onSubmit: () => void };

type ModalFormFooterProps = Submit & {
  onCancel: () => void;
  /** The save is under way: both buttons wait, so a second click neither saves twice nor closes. */
  pending: boolean;
  submitLabel: string;
  /** What the button reads while pending ("Revealing..."); "Saving..." by default. */
  pendingLabel?: string;
  /** A danger button for an action to think twice about (breaking the glass). */
  danger?: boolean;
};

/** The footer of every form dialog: Cancel, and the button that saves, reading "Saving..." meanwhile. */
export function ModalFormFooter({
  onCancel,
  pending,
  submitLabel,
  pendingLabel = 'Saving...',
  danger = false,
  ...submit
}: ModalFormFooterProps) {
  const form = 'form' in submit ? submit.form : undefined;
  return (
    <>
      <button type="button" className="btn btn-outline-secondary" onClick={onCancel} disabled={pending}>
        Cancel
      </button>
      <button
        type={form ? 'submit' : 'button'}
        form={form}
        onClick={'onSubmit' in submit ? submit.onSubmit : undefined}
        className={danger ? 'btn btn-danger' : 'btn btn-primary'}
        disabled={pending}
      >
        {pending ? pendingLabel : submitLabel}
      </button>
    </>
  );
}
