import { lazy, Suspense } from 'react';
import { checkoutTexts } from '@app/contract/checkout';
import type { CheckoutSummary } from '@app/contract/subscriptions';
import { CenteredCard } from '#web/components/centered-card.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { errorMessage } from '#web/lib/api-client.ts';
import { usePaymentIntent } from '../api/create-payment-intent.ts';
import { providerNames, stripePublishableKey } from '../checkout-config.ts';
import { DemoCardForm } from './demo-card-form.tsx';
import { formatDollars, planLabel } from './plan-badge.tsx';

const StripePaymentForm = lazy(() => import('./stripe-payment-form.tsx'));

/**
 * The second step: the plan and its amount, a payment intent from the server, then the card form.
 * Loaded only when the customer subscribes (pages/plans-page.tsx): it brings react-hook-form and the
 * card schema (zod), and Stripe.js comes later still, with the Stripe form.
 */
export function PaymentStep({ summary, onBack }: { summary: CheckoutSummary; onBack: () => void }) {
  const intent = usePaymentIntent(summary._id);
  const provider = intent.status === 'success' ? intent.data.provider : undefined;

  let body;
  if (intent.status === 'pending') {
    body = (
      <div className="d-flex align-items-center justify-content-center gap-2 py-3" role="status">
        <span className="spinner-border spinner-border-sm text-primary" aria-hidden="true" />
        {checkoutTexts.creatingIntent}
      </div>
    );
  } else if (intent.status === 'error') {
    body = (
      <div className="alert alert-danger" role="alert">
        {errorMessage(intent.error, checkoutTexts.loadError)}
      </div>
    );
  } else if (provider === 'demo') {
    body = (
      <DemoCardForm subscriptionId={summary._id} clientSecret={intent.data.clientSecret} onBack={onBack} />
    );
  } else if (stripePublishableKey) {
    body = (
      <Suspense fallback={<Spinner />}>
        <StripePaymentForm
          publishableKey={stripePublishableKey}
          subscriptionId={summary._id}
          clientSecret={intent.data.clientSecret}
          onBack={onBack}
        />
      </Suspense>
    );
  } else {
    body = (
      <div className="alert alert-warning" role="alert">
        {checkoutTexts.noStripeKey}
      </div>
    );
  }
  const formHasBack = intent.status === 'success' && (provider === 'demo' || Boolean(stripePublishableKey));

  return (
    <CenteredCard title="Payment" className="checkout-card">
      <section className="card bg-body-tertiary border-0 mb-4" aria-labelledby="plan-heading">
        <div className="card-body d-flex justify-content-between align-items-center">
          <div>
            <h2 id="plan-heading" className="h6 mb-1">
              {checkoutTexts.plan}: {planLabel(summary)}
            </h2>
            <span className="text-body-secondary small">{checkoutTexts.amount}</span>
          </div>
          <span className="fs-4 fw-semibold">{formatDollars(summary.amount)}</span>
        </div>
      </section>
      {body}
      {formHasBack ? null : (
        <button type="button" className="btn btn-outline-secondary w-100 mt-3" onClick={onBack}>
          {checkoutTexts.backToPlans}
        </button>
      )}
      <p className="text-center text-body-secondary small mt-4 mb-0">
        {checkoutTexts.poweredBy}{' '}
        <strong>{providerNames[provider ?? (stripePublishableKey ? 'stripe' : 'demo')]}</strong>
      </p>
    </CenteredCard>
  );
}
