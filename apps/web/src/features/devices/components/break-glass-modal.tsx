import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  breakGlassBodySchema,
  breakGlassTextMax,
  type BreakGlassBody,
  type BreakGlassGrant,
} from '@app/contract/break-glass';
import { breakGlassTexts } from '@app/contract/break-glass-texts';
import { FormField } from '#web/components/form-field.tsx';
import { Modal } from '#web/components/modal.tsx';
import { ModalFormFooter } from '#web/components/modal-form-footer.tsx';
import { ApiError, errorMessage } from '#web/lib/api-client.ts';
import { useBreakGlass } from '../api/break-glass.ts';

type BreakGlassModalProps = {
  patientId: string;
  show: boolean;
  onClose: () => void;
  onGranted: (grant: BreakGlassGrant) => void;
};

/** A 400 naming the reason belongs under it; anything else above the form. */
const namesReason = (error: unknown) =>
  error instanceof ApiError &&
  error.status === 400 &&
  (error.data as { errors?: { path?: unknown }[] } | null)?.errors?.[0]?.path === 'reason';

/**
 * Decision 082: an admin whose role cannot reveal declares an emergency, with a reason, to see one
 * patient's contact details for a limited time. The security reviewers are told at once.
 */
export function BreakGlassModal({ patientId, show, onClose, onGranted }: BreakGlassModalProps) {
  const formId = useId();
  const breakGlass = useBreakGlass(patientId);
  const { register, handleSubmit, formState, reset, setError } = useForm<BreakGlassBody>({
    resolver: zodResolver(breakGlassBodySchema),
    defaultValues: { reason: '' },
  });
  const close = () => {
    reset();
    breakGlass.reset();
    onClose();
  };
  const submit = handleSubmit(async (body) => {
    try {
      onGranted(await breakGlass.mutateAsync(body));
      reset();
      onClose();
    } catch (error) {
      if (namesReason(error)) setError('reason', { message: (error as ApiError).msg });
    }
  });
  // A 401 the client already handled (signed out) says nothing more here.
  const refused =
    breakGlass.isError &&
    !namesReason(breakGlass.error) &&
    !(breakGlass.error instanceof ApiError && breakGlass.error.handled);
  return (
    <Modal
      show={show}
      onClose={close}
      title={breakGlassTexts.dialogTitle}
      staticBackdrop={breakGlass.isPending}
      footer={
        <ModalFormFooter
          form={formId}
          onCancel={close}
          pending={breakGlass.isPending}
          submitLabel={breakGlassTexts.submit}
          pendingLabel={breakGlassTexts.submitting}
          danger
        />
      }
    >
      <p>{breakGlassTexts.intro}</p>
      {refused ? (
        <div className="alert alert-danger" role="alert">
          {errorMessage(breakGlass.error)}
        </div>
      ) : null}
      <form id={formId} noValidate onSubmit={submit}>
        <FormField
          as="textarea"
          label={breakGlassTexts.reasonLabel}
          hint={breakGlassTexts.reasonHint}
          rows={3}
          maxLength={breakGlassTextMax}
          required
          error={formState.errors.reason?.message}
          {...register('reason')}
        />
      </form>
    </Modal>
  );
}
