import { useEffect } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  createSubscriptionSchema,
  paymentTypeOptions,
  planTypeLabels,
  planTypes,
  subscriptionMessages,
  subscriptionTexts,
  type CreateSubscriptionBody,
  type CreateSubscriptionInput,
} from '@app/contract/subscriptions';
import { FormField } from '#web/components/form-field.tsx';
import { Modal } from '#web/components/modal.tsx';
import { ModalFormFooter } from '#web/components/modal-form-footer.tsx';
import { notifyError } from '#web/lib/api-client.ts';
import { notify } from '#web/lib/notify.ts';
import { useAddSubscription } from '../api/add-subscription.ts';

const blank: CreateSubscriptionInput = {
  fullName: '',
  email: '',
  machineSerialNumber: '',
  amount: '',
  isRecurring: '',
  planType: '',
};

export type AddSubscriptionModalProps = { show: boolean; onClose: () => void };

/** Add Subscription (docs/product.md §5.10 "Subscription"): plan type only for a recurring payment. */
export function AddSubscriptionModal({ show, onClose }: AddSubscriptionModalProps) {
  const add = useAddSubscription();
  const {
    register,
    handleSubmit,
    reset,
    control,
    setValue,
    clearErrors,
    formState: { errors },
  } = useForm<CreateSubscriptionInput, unknown, CreateSubscriptionBody>({
    resolver: zodResolver(createSubscriptionSchema),
    defaultValues: blank,
  });
  const recurring = useWatch({ control, name: 'isRecurring' }) === 'true';

  useEffect(() => {
    if (show) reset(blank);
  }, [show, reset]);

  useEffect(() => {
    if (!recurring) {
      setValue('planType', '');
      clearErrors('planType');
    }
  }, [recurring, setValue, clearErrors]);

  const submit = handleSubmit(async (values) => {
    try {
      const response = await add.mutateAsync(values);
      notify.success(response.msg || subscriptionMessages.created);
      onClose();
    } catch (error) {
      notifyError(error);
    }
  });

  const message = (name: keyof CreateSubscriptionInput) => errors[name]?.message;

  return (
    <Modal
      show={show}
      onClose={onClose}
      title={subscriptionTexts.addSubscription}
      size="lg"
      staticBackdrop
      footer={
        <ModalFormFooter
          onCancel={onClose}
          pending={add.isPending}
          submitLabel={subscriptionTexts.addSubscription}
          form="subscription-form"
        />
      }
    >
      <form id="subscription-form" noValidate onSubmit={submit} className="row">
        <FormField
          label="Full Name"
          required
          autoComplete="off"
          wrapperClassName="col-md-6 mb-3"
          error={message('fullName')}
          {...register('fullName')}
        />
        <FormField
          label="Email"
          type="email"
          required
          autoComplete="off"
          wrapperClassName="col-md-6 mb-3"
          error={message('email')}
          {...register('email')}
        />
        <FormField
          label="Machine Serial Number"
          required
          autoComplete="off"
          wrapperClassName="col-md-6 mb-3"
          error={message('machineSerialNumber')}
          {...register('machineSerialNumber')}
        />
        <FormField
          label="Amount ($)"
          required
          inputMode="decimal"
          autoComplete="off"
          wrapperClassName="col-md-6 mb-3"
          error={message('amount')}
          {...register('amount')}
        />
        <FormField
          as="select"
          label="Payment Type"
          required
          wrapperClassName="col-md-6 mb-3"
          error={message('isRecurring')}
          {...register('isRecurring')}
        >
          <option value="">Select payment type</option>
          {paymentTypeOptions.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </FormField>
        {recurring ? (
          <FormField
            as="select"
            label="Plan Type"
            required
            wrapperClassName="col-md-6 mb-3"
            error={message('planType')}
            {...register('planType')}
          >
            <option value="">Select plan type</option>
            {planTypes.map((p) => (
              <option key={p} value={p}>
                {planTypeLabels[p]}
              </option>
            ))}
          </FormField>
        ) : null}
      </form>
    </Modal>
  );
}
