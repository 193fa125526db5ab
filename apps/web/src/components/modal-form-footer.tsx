/** The save button submits the `<form>` of this id (its fields and checks live there) or calls onSubmit. */
type Submit = { form: string } | { onSubmit: () => void };

type ModalFormFooterProps = Submit & {
  onCancel: () => void;
  /** The save is under way: both buttons wait, so a second click neither saves twice nor closes. */
  pending: boolean;
  submitLabel: string;
};

/** The footer of every form dialog: Cancel, and the button that saves, reading "Saving..." meanwhile. */
export function ModalFormFooter({ onCancel, pending, submitLabel, ...submit }: ModalFormFooterProps) {
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
        className="btn btn-primary"
        disabled={pending}
      >
        {pending ? 'Saving...' : submitLabel}
      </button>
    </>
  );
}
