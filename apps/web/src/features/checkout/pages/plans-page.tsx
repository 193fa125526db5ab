import { lazy, Suspense, useEffect, useState } from 'react';
import { checkoutMessages, checkoutTexts } from '@app/contract/checkout';
import { CenteredCard } from '#web/components/centered-card.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { ApiError, errorMessage } from '#web/lib/api-client.ts';
import { useCheckoutSummary } from '../api/get-checkout-summary.ts';
import { PlanSummary } from '../components/plan-summary.tsx';

/*
 * The payment step (react-hook-form, the card schema with zod, the Stripe form) is fetched when the
 * customer reaches for Subscribe, and awaited when they press it: a phone gets the summary without it
 * (docs/decisions/028).
 */
const loadPaymentStep = () => import('../components/payment-step.tsx');
const PaymentStep = lazy(() => loadPaymentStep().then((m) => ({ default: m.PaymentStep })));

const loading = (title: string) => (
  <CenteredCard title={title}>
    <div className="text-center">
      <Spinner />
    </div>
  </CenteredCard>
);

/** /plans/{id}: the public checkout (docs/product.md §2.13): summary, Subscribe, payment step; Back to Plans returns. */
export function PlansPage({ id }: { id: string | undefined }) {
  const summary = useCheckoutSummary(id);
  const [step, setStep] = useState<'summary' | 'payment'>('summary');

  useEffect(() => {
    // docs/product.md §8: a checkout summary error is only logged (the page says the link cannot be used).
    if (summary.error) console.error(errorMessage(summary.error, checkoutTexts.loadError));
  }, [summary.error]);

  if (!id || summary.error) {
    const unknown = !id || (summary.error instanceof ApiError && summary.error.status === 404);
    return (
      <CenteredCard title="Plans">
        <div className="alert alert-warning mb-0" role="alert">
          {unknown ? checkoutMessages.notFound : checkoutTexts.loadError}
        </div>
      </CenteredCard>
    );
  }
  if (!summary.data) return loading('Plans');
  return step === 'summary' ? (
    <PlanSummary
      summary={summary.data}
      onSubscribe={() => setStep('payment')}
      onIntent={() => void loadPaymentStep()}
    />
  ) : (
    <Suspense fallback={loading('Payment')}>
      <PaymentStep summary={summary.data} onBack={() => setStep('summary')} />
    </Suspense>
  );
}
