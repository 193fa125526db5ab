import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { Stripe, StripeElements } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { checkoutTexts } from '@app/contract/checkout';
import { Spinner } from '#web/components/spinner.tsx';
import { successPath } from '../checkout-config.ts';
import { cancelPath, checkoutNavigation } from '../checkout-paths.ts';

export type StripePaymentFormProps = {
  publishableKey: string;
  subscriptionId: string;
  clientSecret: string;
  onBack: () => void;
};

/**
 * Stripe's Payment Element. This file (and Stripe.js, fetched from js.stripe.com) loads only when a
 * customer reaches the payment step with Stripe configured: the rest of the console never pays for it.
 */
export default function StripePaymentForm({
  publishableKey,
  subscriptionId,
  clientSecret,
  onBack,
}: StripePaymentFormProps) {
  const mount = useRef<HTMLDivElement>(null);
  const [stripe, setStripe] = useState<{ stripe: Stripe; elements: StripeElements } | null>(null);
  const [ready, setReady] = useState(false);
  const [loadError, setLoadError] = useState('');
  const [submitting, setSubmitting] = useState(false);

  useEffect(() => {
    let cancelled = false;
    let destroy = () => {};
    loadStripe(publishableKey)
      .then((instance) => {
        if (cancelled || !mount.current) return;
        if (!instance) throw new Error('Stripe.js did not load');
        const elements = instance.elements({ clientSecret });
        const element = elements.create('payment');
        element.on('ready', () => setReady(true));
        element.mount(mount.current);
        destroy = () => element.destroy();
        setStripe({ stripe: instance, elements });
      })
      .catch((error: unknown) => {
        console.error(error);
        if (!cancelled) setLoadError('The card form could not be loaded. Please try again.');
      });
    return () => {
      cancelled = true;
      destroy();
    };
  }, [publishableKey, clientSecret]);

  const pay = async (event: FormEvent) => {
    event.preventDefault();
    if (!stripe) return;
    setSubmitting(true);
    const { error, paymentIntent } = await stripe.stripe.confirmPayment({
      elements: stripe.elements,
      confirmParams: { return_url: `${window.location.origin}${successPath(subscriptionId)}` },
      redirect: 'if_required',
    });
    if (error) {
      console.error(error.message);
      checkoutNavigation.go(cancelPath);
      return;
    }
    if (paymentIntent.status === 'succeeded' || paymentIntent.status === 'processing')
      checkoutNavigation.go(successPath(subscriptionId));
    else {
      console.error(`Payment ended as ${paymentIntent.status}`);
      checkoutNavigation.go(cancelPath);
    }
  };

  return (
    <form noValidate onSubmit={pay} aria-label="Card payment">
      {loadError ? (
        <div className="alert alert-danger" role="alert">
          {loadError}
        </div>
      ) : null}
      {!ready && !loadError ? (
        <div className="text-center py-3">
          <Spinner />
        </div>
      ) : null}
      <div ref={mount} className="mb-3" />
      <div className="d-flex gap-2">
        <button
          type="button"
          className="btn btn-outline-secondary flex-fill"
          onClick={onBack}
          disabled={submitting}
        >
          {checkoutTexts.backToPlans}
        </button>
        <button type="submit" className="btn btn-primary flex-fill" disabled={!ready || submitting}>
          {submitting ? checkoutTexts.processing : checkoutTexts.payNow}
        </button>
      </div>
    </form>
  );
}
