import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { checkoutTexts } from '@app/contract/checkout';
import { demoCardFormSchema, type DemoCardInput } from '@app/contract/demo-card';
import { FormField } from '#web/components/form-field.tsx';
import { errorMessage } from '#web/lib/api-client.ts';
import { demoPay } from '../api/demo-pay.ts';
import { successPath } from '../checkout-config.ts';
import { cancelPath, checkoutNavigation } from '../checkout-paths.ts';

type Output = { cardNumber: string; expiry: string; cvc: string };
export type DemoCardFormProps = { subscriptionId: string; clientSecret: string; onBack: () => void };

/**
 * The demo provider's card form. The card data goes to our server once, is decided on by Stripe's
 * test numbers and is not kept; the form is reset on leaving.
 */
export function DemoCardForm({ subscriptionId, clientSecret, onBack }: DemoCardFormProps) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<DemoCardInput, unknown, Output>({
    resolver: zodResolver(demoCardFormSchema),
    defaultValues: { cardNumber: '', expiry: '', cvc: '' },
  });

  const submit = handleSubmit(async (card) => {
    try {
      await demoPay({ subcriptionId: subscriptionId, clientSecret, ...card });
      checkoutNavigation.go(successPath(subscriptionId));
    } catch (error) {
      // docs/product.md §2.13: on error log the message and go to /cancel.
      console.error(errorMessage(error, 'Payment failed'));
      checkoutNavigation.go(cancelPath);
    }
  });

  return (
    <form noValidate onSubmit={submit} aria-label="Card payment">
      <FormField
        label="Card number"
        autoComplete="cc-number"
        inputMode="numeric"
        placeholder="1234 1234 1234 1234"
        hint="Test mode: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined."
        error={errors.cardNumber?.message}
        {...register('cardNumber')}
      />
      <div className="row">
        <FormField
          label="Expiry (MM/YY)"
          autoComplete="cc-exp"
          placeholder="MM/YY"
          wrapperClassName="col-6 mb-3"
          error={errors.expiry?.message}
          {...register('expiry')}
        />
        <FormField
          label="CVC"
          autoComplete="cc-csc"
          inputMode="numeric"
          placeholder="123"
          wrapperClassName="col-6 mb-3"
          error={errors.cvc?.message}
          {...register('cvc')}
        />
      </div>
      <div className="d-flex gap-2">
        <button
          type="button"
          className="btn btn-outline-secondary flex-fill"
          onClick={onBack}
          disabled={isSubmitting}
        >
          {checkoutTexts.backToPlans}
        </button>
        <button type="submit" className="btn btn-primary flex-fill" disabled={isSubmitting}>
          {isSubmitting ? checkoutTexts.processing : checkoutTexts.payNow}
        </button>
      </div>
    </form>
  );
}
