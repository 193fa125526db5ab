import { clinicPortalTexts as texts } from '@app/contract/clinic-portal-texts';
import { LoadError } from '#web/components/load-error.tsx';
import { PageHeader } from '#web/components/page-header.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { useClinicSubscriptions } from '../api/get-subscriptions.ts';
import { SubscriptionCard } from '../components/subscription-card.tsx';

/**
 * /clinic/billing (issue 39 item 5): the clinic's subscriptions, each with its status, payments and
 * receipts; an open link is paid on the public checkout page, a failed renewal paid again here, and
 * the card changed on the payment provider's page.
 */
export function ClinicBillingPage() {
  const { data, isPending, isError, error, refetch } = useClinicSubscriptions();
  return (
    <>
      <PageHeader title={texts.billingTitle} />
      {isError ? (
        <LoadError
          error={error}
          fallback="The subscriptions could not be loaded."
          onRetry={() => void refetch()}
        />
      ) : isPending ? (
        <Spinner label="Loading subscriptions" />
      ) : data.subscriptions.length === 0 ? (
        <p className="text-body-secondary">{texts.billingEmpty}</p>
      ) : (
        data.subscriptions.map((s) => <SubscriptionCard key={s._id} subscription={s} />)
      )}
    </>
  );
}
