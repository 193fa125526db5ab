import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Doctor, Patient } from '@app/contract/device-users';
import { revealBodySchema, revealMessages, revealReasons, type RevealBody } from '@app/contract/masking';
import { FormField } from '#web/components/form-field.tsx';
import { Modal } from '#web/components/modal.tsx';
import { ModalFormFooter } from '#web/components/modal-form-footer.tsx';
import { errorMessage } from '#web/lib/api-client.ts';
import { useRevealContact, type RevealKind } from '../api/reveal-contact.ts';

type RevealContactModalProps<K extends RevealKind> = {
  kind: K;
  id: string;
  show: boolean;
  onClose: () => void;
  onRevealed: (record: K extends 'patient' ? Patient : Doctor) => void;
};

/** Decision 045: the reason for seeing one record's contact data, asked before it is shown. */
export function RevealContactModal<K extends RevealKind>({
  kind,
  id,
  show,
  onClose,
  onRevealed,
}: RevealContactModalProps<K>) {
  const formId = useId();
  const reveal = useRevealContact(kind, id);
  const { register, handleSubmit, control, formState, reset } = useForm<RevealBody>({
    resolver: zodResolver(revealBodySchema),
    defaultValues: { reason: undefined, note: '' },
  });
  const reason = useWatch({ control, name: 'reason' });
  const close = () => {
    reset();
    reveal.reset();
    onClose();
  };
  const submit = handleSubmit(async (body) => {
    const record = await reveal.mutateAsync(body.note ? body : { reason: body.reason }).catch(() => null);
    if (!record) return;
    onRevealed(record);
    reset();
    onClose();
  });
  return (
    <Modal
      show={show}
      onClose={close}
      title={revealMessages.title}
      staticBackdrop={reveal.isPending}
      footer={
        <ModalFormFooter
          form={formId}
          onCancel={close}
          pending={reveal.isPending}
          submitLabel={revealMessages.reveal}
          pendingLabel={revealMessages.revealing}
        />
      }
    >
      <p>{revealMessages.intro}</p>
      {reveal.isError ? (
        <div className="alert alert-danger" role="alert">
          {errorMessage(reveal.error)}
        </div>
      ) : null}
      <form id={formId} noValidate onSubmit={submit}>
        <FormField
          as="select"
          label={revealMessages.reasonLabel}
          error={formState.errors.reason?.message}
          {...register('reason')}
        >
          <option value="">Choose a reason</option>
          {revealReasons.map((reason) => (
            <option key={reason} value={reason}>
              {reason}
            </option>
          ))}
        </FormField>
        <FormField
          as="textarea"
          label={revealMessages.noteLabel}
          hint={reason === 'Other' ? undefined : 'Optional'}
          rows={2}
          maxLength={500}
          error={formState.errors.note?.message}
          {...register('note')}
        />
      </form>
    </Modal>
  );
}
