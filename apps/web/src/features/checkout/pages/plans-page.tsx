import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { checkoutMessages, checkoutTexts } from '@app/contract/subscriptions';
import { CenteredCard } from '../../../components/centered-card.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { useCheckoutSummary } from '../api/get-checkout-summary.ts';
import { PaymentStep } from '../components/payment-step.tsx';
import { PlanSummary } from '../components/plan-summary.tsx';

/** /plans/{id}: the public checkout (SPEC 2): summary, Subscribe, payment step; Back to Plans returns. */
export function PlansPage() {
  const { id } = useParams();
  const summary = useCheckoutSummary(id);
  const [step, setStep] = useState<'summary' | 'payment'>('summary');

  useEffect(() => {
    // SPEC 8: a checkout summary error is only logged (the page says the link cannot be used).
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
  if (!summary.data) {
    return (
      <CenteredCard title="Plans">
        <div className="text-center">
          <Spinner />
        </div>
      </CenteredCard>
    );
  }
  return step === 'summary' ? (
    <PlanSummary summary={summary.data} onSubscribe={() => setStep('payment')} />
  ) : (
    <PaymentStep summary={summary.data} onBack={() => setStep('summary')} />
  );
}
