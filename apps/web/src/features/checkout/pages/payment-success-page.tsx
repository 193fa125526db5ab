import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { checkoutTexts } from '@app/contract/subscriptions';
import { CenteredCard } from '../../../components/centered-card.tsx';
import { OutcomeIcon } from '../components/outcome-icon.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { reconcilePayment } from '../api/reconcile-payment.ts';
import { publicWebsiteUrl } from '../checkout-config.ts';

/** /success (SPEC 2). It also asks the server to reconcile, so the link is Complete even without a webhook. */
export function PaymentSuccessPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const subscriptionId = params.get('subscription');
  const failedRedirect = params.get('redirect_status') === 'failed';
  const asked = useRef(false);

  useEffect(() => {
    // A redirect-based payment that failed comes back here with Stripe's redirect_status.
    if (failedRedirect) {
      navigate('/cancel', { replace: true });
      return;
    }
    if (!subscriptionId || asked.current) return;
    asked.current = true;
    reconcilePayment(subscriptionId).catch((error: unknown) =>
      console.error(errorMessage(error, 'Reconciliation failed')),
    );
  }, [subscriptionId, failedRedirect, navigate]);

  return (
    <CenteredCard title={checkoutTexts.successTitle} className="text-center">
      <OutcomeIcon outcome="success" />
      <p className="text-center mb-4">{checkoutTexts.successText}</p>
      <button
        type="button"
        className="btn btn-primary w-100"
        onClick={() => window.open(publicWebsiteUrl(), '_blank', 'noopener,noreferrer')}
      >
        {checkoutTexts.goBack}
      </button>
    </CenteredCard>
  );
}
