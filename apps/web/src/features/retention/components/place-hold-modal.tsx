import { zodResolver } from '@hookform/resolvers/zod';
import {
  legalHoldBodySchema,
  legalHoldTextMax,
  retentionMessages,
  type LegalHoldBody,
} from '@app/contract/retention';
import { legalHoldSubjectKinds, legalHoldSubjectLabels, retentionTexts } from '@app/contract/retention-texts';
import { FormField } from '#web/components/form-field.tsx';
import { FormModal, useFormModal } from '#web/components/form-modal.tsx';
import type { ApiError } from '#web/lib/api-client.ts';
import { usePlaceLegalHold } from '../api/legal-holds.ts';

const blank: LegalHoldBody = { subjectKind: 'patient', subjectId: '', reason: '' };
const fields = ['subjectKind', 'subjectId', 'reason'] as const;

/** A 400 naming a field goes under it (no such patient, a hold already in force); others are a toast. */
const fieldOfError = (error: ApiError) => {
  const path = (error.data as { errors?: { path?: unknown }[] } | null)?.errors?.[0]?.path;
  return error.status === 400 ? fields.find((f) => f === path) : undefined;
};

/** Placing a legal hold (decision 086): on a patient or a machine, by id, with a reason. */
export function PlaceHoldModal({ show, onClose }: { show: boolean; onClose: () => void }) {
  const place = usePlaceLegalHold();
  const form = useFormModal({ show, resolver: zodResolver(legalHoldBodySchema), blank });
  const errors = form.formState.errors;
  return (
    <FormModal
      form={form}
      show={show}
      onClose={onClose}
      title={retentionTexts.placeHoldTitle}
      submitLabel={retentionTexts.placeHold}
      pending={place.isPending}
      onSave={(body) => place.mutateAsync(body)}
      saved={retentionMessages.placed}
      fieldOfError={fieldOfError}
    >
      <p>{retentionTexts.placeHoldIntro}</p>
      <FormField
        as="select"
        label={retentionTexts.subjectKindLabel}
        error={errors.subjectKind?.message}
        {...form.register('subjectKind')}
      >
        {legalHoldSubjectKinds.map((kind) => (
          <option key={kind} value={kind}>
            {legalHoldSubjectLabels[kind]}
          </option>
        ))}
      </FormField>
      <FormField
        label={retentionTexts.subjectIdLabel}
        hint={retentionTexts.subjectIdHint}
        required
        autoComplete="off"
        error={errors.subjectId?.message}
        {...form.register('subjectId')}
      />
      <FormField
        as="textarea"
        label={retentionTexts.reasonLabel}
        hint={retentionTexts.reasonHint}
        rows={3}
        maxLength={legalHoldTextMax}
        required
        error={errors.reason?.message}
        {...form.register('reason')}
      />
    </FormModal>
  );
}
