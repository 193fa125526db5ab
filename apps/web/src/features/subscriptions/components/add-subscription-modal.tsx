import { useEffect } from 'react';
import { useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  createSubscriptionSchema,
  paymentTypeOptions,
  planTypeLabels,
  planTypes,
  subscriptionMessages,
  subscriptionTexts,
  type CreateSubscriptionInput,
} from '@app/contract/subscriptions';
import { CustomerPicker } from '#web/components/customer-picker.tsx';
import { FormModal, useFormModal } from '#web/components/form-modal.tsx';
import { useCan } from '#web/lib/use-session.ts';
import { useAddSubscription } from '../api/add-subscription.ts';

const blank: CreateSubscriptionInput = {
  fullName: '',
  email: '',
  machineSerialNumber: '',
  amount: '',
  isRecurring: '',
  planType: '',
  customerId: '',
};

export type AddSubscriptionModalProps = { show: boolean; onClose: () => void };

/** Add Subscription (docs/product.md §5.10 "Subscription"): plan type only for a recurring payment. */
export function AddSubscriptionModal({ show, onClose }: AddSubscriptionModalProps) {
  const add = useAddSubscription();
  const form = useFormModal({ show, resolver: zodResolver(createSubscriptionSchema), blank, columns: 2 });
  const { control, setValue, clearErrors, field, select } = form;
  const recurring = useWatch({ control, name: 'isRecurring' }) === 'true';
  // Ours (issue 39): the customer the link is for; left empty, the machine's holder.
  const mayPickCustomer = useCan('customers.view');

  useEffect(() => {
    if (!recurring) {
      setValue('planType', '');
      clearErrors('planType');
    }
  }, [recurring, setValue, clearErrors]);

  return (
    <FormModal
      form={form}
      show={show}
      onClose={onClose}
      title={subscriptionTexts.addSubscription}
      submitLabel={subscriptionTexts.addSubscription}
      pending={add.isPending}
      onSave={(values) => add.mutateAsync(values)}
      saved={subscriptionMessages.created}
    >
      {field('fullName', 'Full Name')}
      {field('email', 'Email', { type: 'email' })}
      {field('machineSerialNumber', 'Machine Serial Number')}
      {mayPickCustomer ? (
        <div className="col-md-6">
          <CustomerPicker
            control={control}
            name="customerId"
            required={false}
            hint="Optional: left empty, the customer holding the machine."
          />
        </div>
      ) : null}
      {field('amount', 'Amount ($)', { inputMode: 'decimal' })}
      {select(
        'isRecurring',
        'Payment Type',
        <>
          <option value="">Select payment type</option>
          {paymentTypeOptions.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </>,
      )}
      {recurring
        ? select(
            'planType',
            'Plan Type',
            <>
              <option value="">Select plan type</option>
              {planTypes.map((p) => (
                <option key={p} value={p}>
                  {planTypeLabels[p]}
                </option>
              ))}
            </>,
          )
        : null}
    </FormModal>
  );
}
