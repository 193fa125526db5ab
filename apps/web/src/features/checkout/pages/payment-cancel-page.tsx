import { Link } from 'react-router';
import { checkoutTexts } from '@app/contract/subscriptions';
import { CenteredCard } from '../../../components/centered-card.tsx';
import { OutcomeIcon } from '../components/outcome-icon.tsx';

/** /cancel (SPEC 2). */
export function PaymentCancelPage() {
  return (
    <CenteredCard title={checkoutTexts.cancelTitle} className="text-center">
      <OutcomeIcon outcome="cancel" />
      <p className="text-center mb-4">{checkoutTexts.cancelText}</p>
      <Link to="/admin/subscription-management" className="btn btn-primary w-100">
        {checkoutTexts.backToSubscriptions}
      </Link>
    </CenteredCard>
  );
}
