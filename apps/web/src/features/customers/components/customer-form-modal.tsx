import { useId } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  customerCreateBodySchema,
  customerLimits,
  customerMessages,
  type Customer,
  type CustomerCreateBodyInput,
} from '@app/contract/customers';
import { FormField } from '#web/components/form-field.tsx';
import { FormModal, useFormModal } from '#web/components/form-modal.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { serverFieldErrors } from '#web/lib/server-field-errors.ts';
import { useSaveCustomer } from '../api/save-customer.ts';

export type CustomerFormModalProps = {
  show: boolean;
  onClose: () => void;
  /** The customer to edit; a new one when absent. */
  customer?: Customer | null;
  /** Called with a new customer once it is saved (the list opens its page). */
  onCreated?: (customer: Customer) => void;
};

type Values = Required<CustomerCreateBodyInput>;
const fields = ['name', 'country', 'address', 'billingEmail', 'taxId', 'notes', 'requireMfa'] as const;
const blank: Values = {
  name: '',
  country: '',
  address: '',
  billingEmail: '',
  taxId: '',
  notes: '',
  requireMfa: false,
};
const fromCustomer = (c: Customer): Values => ({
  name: c.name,
  country: c.country,
  address: c.address,
  billingEmail: c.billingEmail,
  taxId: c.taxId,
  notes: c.notes,
  requireMfa: c.requireMfa,
});
const resolver = zodResolver(customerCreateBodySchema);

/** Where a refusal goes: a taken name under Name, a field the server names under that field. */
const fieldOfError = (error: ApiError) =>
  error.status === 409 ? 'name' : serverFieldErrors(error, fields)[0]?.field;

/**
 * Add Customer / Edit Customer (issue 39 item 1): name and country required, the rest optional, and
 * whether the clinic's users must use two-step sign-in. A refusal puts each named field's message
 * under it; what was typed stays in the form.
 */
export function CustomerFormModal({ show, onClose, customer, onCreated }: CustomerFormModalProps) {
  const save = useSaveCustomer();
  const mfaId = useId();
  const form = useFormModal({
    show,
    resolver,
    blank,
    record: customer,
    valuesOf: fromCustomer,
    columns: 2,
  });
  const errors = form.formState.errors;
  const optional = (name: 'address' | 'billingEmail' | 'taxId', label: string, type = 'text') => (
    <FormField
      label={label}
      type={type}
      autoComplete="off"
      wrapperClassName="col-md-6 mb-3"
      maxLength={customerLimits[name]}
      error={errors[name]?.message}
      {...form.register(name)}
    />
  );

  return (
    <FormModal
      form={form}
      show={show}
      onClose={onClose}
      title={customer ? 'Edit Customer' : 'Add Customer'}
      submitLabel="Save"
      pending={save.isPending}
      onSave={async (body) => {
        try {
          const response = await save.mutateAsync({ id: customer?._id, body });
          if (!customer) onCreated?.(response.data);
          return response;
        } catch (error) {
          // Every field the server names gets its own message; the first is FormModal's to place.
          const named = serverFieldErrors(error, fields);
          for (const { field, message } of named.slice(1)) form.setError(field, { message });
          if (error instanceof ApiError && named[0])
            throw new ApiError(error.status, named[0].message, error.data);
          throw error;
        }
      }}
      saved={customer ? customerMessages.updated : customerMessages.created}
      fieldOfError={fieldOfError}
    >
      {form.field('name', 'Name', { autoComplete: 'organization' })}
      {form.field('country', 'Country', { autoComplete: 'country-name' })}
      {optional('address', 'Address')}
      {optional('billingEmail', 'Billing email', 'email')}
      {optional('taxId', 'Tax id')}
      <div className="col-md-6 mb-3 d-flex align-items-end">
        <div className="form-check">
          <input
            id={mfaId}
            type="checkbox"
            className="form-check-input"
            aria-describedby={`${mfaId}-hint`}
            {...form.register('requireMfa')}
          />
          <label htmlFor={mfaId} className="form-check-label">
            Require two-step sign-in for clinic users
          </label>
          <div id={`${mfaId}-hint`} className="form-text">
            Each of the clinic&apos;s users must set up two-step sign-in.
          </div>
        </div>
      </div>
      <FormField
        as="textarea"
        label="Notes"
        rows={3}
        wrapperClassName="col-12 mb-3"
        maxLength={customerLimits.notes}
        error={errors.notes?.message}
        {...form.register('notes')}
      />
    </FormModal>
  );
}
