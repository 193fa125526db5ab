import { Link } from 'react-router';
import { checkoutTexts } from '@app/contract/subscriptions';
import { CenteredCard } from '../../../components/centered-card.tsx';

/** /cancel (SPEC 2). */
export function PaymentCancelPage() {
  return (
    <CenteredCard title={checkoutTexts.cancelTitle} className="text-center">
      <div className="d-flex justify-content-center mb-3 text-danger" aria-hidden="true">
        <svg width={56} height={56} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round">
          <circle cx="12" cy="12" r="10" />
          <path d="M15 9l-6 6M9 9l6 6" />
        </svg>
      </div>
      <p className="text-center mb-4">{checkoutTexts.cancelText}</p>
      <Link to="/admin/subscription-management" className="btn btn-primary w-100">
        {checkoutTexts.backToSubscriptions}
      </Link>
    </CenteredCard>
  );
}
