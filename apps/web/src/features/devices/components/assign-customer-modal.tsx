import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, type ReactNode } from 'react';
import { z } from 'zod';
import { customerMessages } from '@app/contract/customers-texts';
import type { AssignmentBody, ReturnBody } from '@app/contract/machine-assignments';
import { CustomerPicker } from '#web/components/customer-picker.tsx';
import { FormField } from '#web/components/form-field.tsx';
import { FormModal, useFormModal } from '#web/components/form-modal.tsx';
import type { ApiError } from '#web/lib/api-client.ts';
import { getTimeZone } from '#web/lib/session-store.ts';
import { inputToIso, nowForInput } from '#web/lib/local-date-time.ts';

const when = z
  .string()
  .refine((v) => inputToIso(v) !== null, 'Enter the date and time')
  .transform((v) => inputToIso(v)!);
const reason = z.string().trim().max(500, customerMessages.reasonTooLong);
const assignForm = z.object({ customerId: z.string().min(1, 'Choose a customer'), from: when, reason });
const returnForm = z.object({ at: when, reason });
type AssignValues = z.input<typeof assignForm>;
type ReturnValues = z.input<typeof returnForm>;
const assignResolver = zodResolver(assignForm);
const returnResolver = zodResolver(returnForm);

/** A refusal's field: the one the server names, else the date for a date rule, the customer for its holder. */
function fieldOf<F extends string>(error: ApiError, dateField: F, fields: readonly F[]): F | undefined {
  const path = (error.data as { errors?: { path?: unknown }[] } | null)?.errors?.[0]?.path;
  const named = fields.find((f) => f === path);
  if (named) return named;
  if (path === 'from' || path === 'at' || /^(from|at) /.test(error.msg)) return dateField;
  if (error.msg === customerMessages.alreadyHolder || error.msg === customerMessages.customerUnknown)
    return fields.find((f) => f === 'customerId');
  return undefined;
}
const assignFields = ['customerId', 'from', 'reason'] as const;
const returnFields = ['at', 'reason'] as const;

/*
 * The time the dialog opened with, left as it was, is sent as no time at all: the server takes its own
 * now, to the millisecond. The field holds minutes only, and a move within the minute of the last
 * assignment would otherwise start no later than the period it ends.
 */
const untouched = (opened: string) => inputToIso(opened);

const whenHint = () => `In your time zone (${getTimeZone()}). Now, or earlier: not in the future.`;

export type AssignCustomerModalProps = {
  show: boolean;
  onClose: () => void;
  title: string;
  submitLabel: string;
  /** The customer holding the machine now: not offered. */
  exclude?: string | null;
  /** What the dialog acts on, above the fields ("3 machines"). */
  intro?: ReactNode;
  save: (body: AssignmentBody) => Promise<{ msg?: string }>;
  pending: boolean;
  saved: string;
};

/**
 * Assign to customer / Move to another customer (issue 39 item 2): a customer picked by typing, from
 * when (now by default, in the admin's time zone) and why. The server's refusal goes under its field.
 */
export function AssignCustomerModal({
  show,
  onClose,
  title,
  submitLabel,
  exclude,
  intro,
  save,
  pending,
  saved,
}: AssignCustomerModalProps) {
  // Now, each time the dialog opens: one object per opening, as useFormModal resets when it changes.
  const blank = useMemo<AssignValues>(
    () => ({ customerId: '', from: show ? nowForInput() : '', reason: '' }),
    [show],
  );
  const form = useFormModal({ show, resolver: assignResolver, blank });
  const errors = form.formState.errors;
  return (
    <FormModal
      form={form}
      show={show}
      onClose={onClose}
      title={title}
      submitLabel={submitLabel}
      pending={pending}
      onSave={({ from, ...rest }) => save(from === untouched(blank.from) ? rest : { ...rest, from })}
      saved={saved}
      fieldOfError={(error) => fieldOf(error, 'from', assignFields)}
    >
      {intro}
      <CustomerPicker control={form.control} name="customerId" exclude={exclude} />
      <FormField
        label="Effective from"
        type="datetime-local"
        required
        hint={whenHint()}
        error={errors.from?.message}
        {...form.register('from')}
      />
      <FormField
        as="textarea"
        label="Reason"
        rows={2}
        maxLength={500}
        hint="Optional: a loaner, a sale, a repossession…"
        error={errors.reason?.message}
        {...form.register('reason')}
      />
    </FormModal>
  );
}

export type ReturnMachineModalProps = {
  show: boolean;
  onClose: () => void;
  machineNumber: string;
  customerName: string;
  save: (body: ReturnBody) => Promise<{ msg?: string }>;
  pending: boolean;
};

/** Return to supplier: the open period closes at the time given (now by default), with a reason. */
export function ReturnMachineModal({
  show,
  onClose,
  machineNumber,
  customerName,
  save,
  pending,
}: ReturnMachineModalProps) {
  const blank = useMemo<ReturnValues>(() => ({ at: show ? nowForInput() : '', reason: '' }), [show]);
  const form = useFormModal({ show, resolver: returnResolver, blank });
  const errors = form.formState.errors;
  return (
    <FormModal
      form={form}
      show={show}
      onClose={onClose}
      title="Return to supplier"
      submitLabel="Return to supplier"
      pending={pending}
      onSave={({ at, ...rest }) => save(at === untouched(blank.at) ? rest : { ...rest, at })}
      saved={customerMessages.returned}
      fieldOfError={(error) => fieldOf(error, 'at', returnFields)}
    >
      <p>
        {machineNumber} leaves {customerName}. Its records made there stay with {customerName}.
      </p>
      <FormField
        label="Returned at"
        type="datetime-local"
        required
        hint={whenHint()}
        error={errors.at?.message}
        {...form.register('at')}
      />
      <FormField
        as="textarea"
        label="Reason"
        rows={2}
        maxLength={500}
        hint="Optional."
        error={errors.reason?.message}
        {...form.register('reason')}
      />
    </FormModal>
  );
}
