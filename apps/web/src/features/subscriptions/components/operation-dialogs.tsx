import type { FieldValues, Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  cancelBodySchema,
  cancelWhenLabels,
  cancelWhens,
  extendBodySchema,
  graceBodySchema,
  revokeBodySchema,
  subscriptionOperationMessages as messages,
  type CancelWhen,
} from '@app/contract/subscription-operations';
import { FormField } from '#web/components/form-field.tsx';
import { FormModal, useFormModal, type FormModalForm } from '#web/components/form-modal.tsx';
import {
  blankSignature,
  SignatureFields,
  signatureErrorField,
  signatureFormSchema,
} from '#web/components/signature-fields.tsx';
import type { ApiError } from '#web/lib/api-client.ts';
import { formatDate } from '#web/lib/format.ts';
import { useSubscriptionOperation } from '../api/run-subscription-operation.ts';
import { OperationConfirmDialog } from './operation-confirm-dialog.tsx';
import { operationLabel, type OperationDialogProps as DialogProps } from './operation-texts.ts';

/** The field a 400 names (decision 004: `data.errors[0].path`), when the form has it. */
const fieldNamed =
  <F extends string>(fields: readonly F[]) =>
  (error: ApiError): F | undefined => {
    const path = (error.data as { errors?: { path?: unknown }[] } | null)?.errors?.[0]?.path;
    return fields.find((f) => f === path);
  };

/** An optional reason: left empty, none is sent (the contract refuses an empty one). */
const optionalText = { setValueAs: (v: unknown) => (typeof v === 'string' && v.trim() ? v : undefined) };

function ReasonField<T extends FieldValues, B>({
  form,
  required,
}: {
  form: FormModalForm<T, B>;
  required: boolean;
}) {
  const name = 'reason' as Path<T>;
  return (
    <FormField
      as="textarea"
      label="Reason"
      rows={3}
      maxLength={500}
      required={required}
      hint={required ? 'Kept in the timeline and the audit trail.' : 'Optional; kept in the timeline.'}
      error={form.getFieldState(name, form.formState).error?.message}
      {...form.register(name, required ? undefined : optionalText)}
    />
  );
}

function DateField<T extends FieldValues, B>({
  form,
  name,
  label,
  hint,
}: {
  form: FormModalForm<T, B>;
  name: Path<T>;
  label: string;
  hint?: string;
}) {
  return (
    <FormField
      type="date"
      label={label}
      required
      hint={hint}
      error={form.getFieldState(name, form.formState).error?.message}
      {...form.register(name)}
    />
  );
}

const extendSchema = extendBodySchema.extend({ signature: signatureFormSchema });
const extendBlank = { paidThrough: '', reason: '', signature: blankSignature };
const extendFieldOfError = (error: ApiError) =>
  signatureErrorField(error) ?? fieldNamed(['paidThrough', 'reason'] as const)(error);
/** Extend the paid-through date: a reason, signed with the meaning and the password (decision 083). */
function ExtendDialog({ target, onClose }: DialogProps) {
  const show = target?.name === 'extend';
  const run = useSubscriptionOperation(target?.detail.subscription._id ?? '');
  const form = useFormModal({ show, resolver: zodResolver(extendSchema), blank: extendBlank });
  const current = target?.detail.plan.paidThrough;
  return (
    <FormModal
      form={form}
      show={show}
      onClose={onClose}
      title={operationLabel('extend')}
      submitLabel="Extend"
      pending={run.isPending}
      onSave={(body) => run.mutateAsync({ name: 'extend', body })}
      saved={messages.extended}
      fieldOfError={extendFieldOfError}
    >
      <DateField
        form={form}
        name="paidThrough"
        label="New paid-through date"
        hint={current ? `Paid through ${formatDate(current)} now.` : undefined}
      />
      <ReasonField form={form} required />
      <SignatureFields form={form} />
    </FormModal>
  );
}

const graceBlank = { until: '', reason: '' };
/** Grant grace until a day; a recurring plan's collection pauses until then. */
function GraceDialog({ target, onClose }: DialogProps) {
  const show = target?.name === 'grace';
  const run = useSubscriptionOperation(target?.detail.subscription._id ?? '');
  const form = useFormModal({ show, resolver: zodResolver(graceBodySchema), blank: graceBlank });
  const recurring = target?.detail.subscription.isRecurring === true;
  return (
    <FormModal
      form={form}
      show={show}
      onClose={onClose}
      title={operationLabel('grace')}
      submitLabel="Grant grace"
      pending={run.isPending}
      onSave={(body) => run.mutateAsync({ name: 'grace', body })}
      saved={messages.graceGranted}
      fieldOfError={fieldNamed(['until', 'reason'])}
    >
      <DateField
        form={form}
        name="until"
        label="Grace until"
        hint={
          recurring
            ? "The machine keeps working, and collection of the plan's payments pauses, until the end of that day."
            : 'The machine keeps working until the end of that day.'
        }
      />
      <ReasonField form={form} required />
    </FormModal>
  );
}

const cancelBlank: { when: CancelWhen; reason?: string } = { when: 'period-end', reason: '' };
/** Cancel a recurring plan at the end of its paid period, or now. */
function CancelDialog({ target, onClose }: DialogProps) {
  const show = target?.name === 'cancel';
  const run = useSubscriptionOperation(target?.detail.subscription._id ?? '');
  const form = useFormModal({ show, resolver: zodResolver(cancelBodySchema), blank: cancelBlank });
  return (
    <FormModal
      form={form}
      show={show}
      onClose={onClose}
      title={operationLabel('cancel')}
      submitLabel="Cancel plan"
      pending={run.isPending}
      onSave={(body) => run.mutateAsync({ name: 'cancel', body })}
      saved={messages.cancelledAtPeriodEnd}
      fieldOfError={fieldNamed(['when', 'reason'])}
    >
      {form.select(
        'when',
        'When',
        cancelWhens.map((when) => (
          <option key={when} value={when}>
            {cancelWhenLabels[when]}
          </option>
        )),
        'Ending it now stops the licence at once; at the period end the paid time is kept.',
      )}
      <ReasonField form={form} required={false} />
    </FormModal>
  );
}

const revokeBlank: { reason?: string } = { reason: '' };
/** Revoke an unpaid link: the customer can no longer pay it. */
function RevokeDialog({ target, onClose }: DialogProps) {
  const show = target?.name === 'revoke';
  const run = useSubscriptionOperation(target?.detail.subscription._id ?? '');
  const form = useFormModal({ show, resolver: zodResolver(revokeBodySchema), blank: revokeBlank });
  return (
    <FormModal
      form={form}
      show={show}
      onClose={onClose}
      title={operationLabel('revoke')}
      submitLabel="Revoke link"
      pending={run.isPending}
      onSave={(body) => run.mutateAsync({ name: 'revoke', body })}
      saved={messages.revokedDone}
      fieldOfError={fieldNamed(['reason'])}
    >
      <p>{target ? `${target.detail.subscription.email} can no longer pay this link.` : null}</p>
      <ReasonField form={form} required={false} />
    </FormModal>
  );
}

/** Every operation's dialog; the one for `target` is shown. Used by the list and the page alike. */
export function OperationDialogs(props: DialogProps) {
  return (
    <>
      <OperationConfirmDialog {...props} />
      <ExtendDialog {...props} />
      <GraceDialog {...props} />
      <CancelDialog {...props} />
      <RevokeDialog {...props} />
    </>
  );
}
