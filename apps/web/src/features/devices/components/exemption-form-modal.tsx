import { zodResolver } from '@hookform/resolvers/zod';
import {
  endExemptionBodySchema,
  exemptionBodySchema,
  exemptionKindLabels,
  exemptionKinds,
  licenceMessages,
  type ExemptionBody,
} from '@app/contract/licences';
import { FormField } from '#web/components/form-field.tsx';
import { FormModal, useFormModal } from '#web/components/form-modal.tsx';
import type { ApiError } from '#web/lib/api-client.ts';
import { useEndExemption, useSetExemption } from '../api/set-exemption.ts';

/** The field a 400 names in `data.errors` (decision 004), when it is one of the form's. */
function fieldOf<F extends string>(fields: readonly F[]) {
  return (error: ApiError): F | undefined => {
    const path = (error.data as { errors?: { path?: unknown }[] } | null)?.errors?.[0]?.path;
    return error.status === 400 && fields.includes(path as F) ? (path as F) : undefined;
  };
}

const blank = { kind: '', reason: '', until: '' } as unknown as ExemptionBody;
const exemptionFields = ['kind', 'reason', 'until'] as const;

/**
 * Exempt a machine (issue 34): a kind, a reason and the last day it holds. Saving may ask for the
 * password first (the route's step-up; the API client opens the dialog and sends it again).
 */
export function ExemptionFormModal({
  deviceId,
  machineNumber,
  show,
  onClose,
}: {
  deviceId: string;
  machineNumber: string;
  show: boolean;
  onClose: () => void;
}) {
  const save = useSetExemption(deviceId);
  const form = useFormModal({ show, resolver: zodResolver(exemptionBodySchema), blank });
  return (
    <FormModal
      form={form}
      show={show}
      onClose={onClose}
      title={`Exempt ${machineNumber}`}
      submitLabel="Exempt"
      pending={save.isPending}
      onSave={(body) => save.mutateAsync(body)}
      saved={licenceMessages.exempted}
      fieldOfError={fieldOf(exemptionFields)}
    >
      {form.select(
        'kind',
        'Kind',
        <>
          <option value="">Select kind</option>
          {exemptionKinds.map((kind) => (
            <option key={kind} value={kind}>
              {exemptionKindLabels[kind]}
            </option>
          ))}
        </>,
      )}
      <FormField
        as="textarea"
        label="Reason"
        required
        rows={2}
        error={form.formState.errors.reason?.message}
        {...form.register('reason')}
      />
      {form.field('until', 'End date', { type: 'date' })}
    </FormModal>
  );
}

// Module-level: the form is filled afresh whenever `blank` changes.
const endBlank = { reason: '' };

/** End an exemption before its date, with a reason; the machine's subscriptions decide again. */
export function EndExemptionModal({
  deviceId,
  show,
  onClose,
}: {
  deviceId: string;
  show: boolean;
  onClose: () => void;
}) {
  const end = useEndExemption(deviceId);
  const form = useFormModal({
    show,
    resolver: zodResolver(endExemptionBodySchema),
    blank: endBlank,
  });
  return (
    <FormModal
      form={form}
      show={show}
      onClose={onClose}
      title="End exemption"
      submitLabel="End exemption"
      pending={end.isPending}
      onSave={(body) => end.mutateAsync(body)}
      saved={licenceMessages.exemptionEnded}
      fieldOfError={fieldOf(['reason'] as const)}
    >
      {form.field('reason', 'Reason')}
    </FormModal>
  );
}
