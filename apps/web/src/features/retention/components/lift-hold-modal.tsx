import { zodResolver } from '@hookform/resolvers/zod';
import {
  legalHoldLiftBodySchema,
  legalHoldTextMax,
  retentionMessages,
  type LegalHold,
  type LegalHoldLiftBody,
} from '@app/contract/retention';
import { retentionTexts } from '@app/contract/retention-texts';
import { FormField } from '#web/components/form-field.tsx';
import { FormModal, useFormModal } from '#web/components/form-modal.tsx';
import type { ApiError } from '#web/lib/api-client.ts';
import { useLiftLegalHold } from '../api/legal-holds.ts';

const blank: LegalHoldLiftBody = { reason: '' };

const fieldOfError = (error: ApiError) =>
  error.status === 400 &&
  (error.data as { errors?: { path?: unknown }[] } | null)?.errors?.[0]?.path === 'reason'
    ? ('reason' as const)
    : undefined;

/** Lifting a hold with a reason, kept with it; the subject is under the schedule again from the next run. */
export function LiftHoldModal({ hold, onClose }: { hold: LegalHold | null; onClose: () => void }) {
  const lift = useLiftLegalHold();
  const form = useFormModal({ show: hold !== null, resolver: zodResolver(legalHoldLiftBodySchema), blank });
  return (
    <FormModal
      form={form}
      show={hold !== null}
      onClose={onClose}
      title={retentionTexts.liftTitle}
      submitLabel={retentionTexts.lift}
      pending={lift.isPending}
      onSave={(body) => lift.mutateAsync({ id: hold!._id, body })}
      saved={retentionMessages.lifted}
      fieldOfError={fieldOfError}
    >
      {hold ? (
        <>
          <p>{retentionTexts.liftIntro(hold.subjectLabel)}</p>
          <p>
            <strong>Held because:</strong> {hold.reason}
          </p>
        </>
      ) : null}
      <FormField
        as="textarea"
        label={retentionTexts.liftReasonLabel}
        rows={3}
        maxLength={legalHoldTextMax}
        required
        error={form.formState.errors.reason?.message}
        {...form.register('reason')}
      />
    </FormModal>
  );
}
