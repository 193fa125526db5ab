import { oneTimeLabel, planTypeLabels } from '@app/contract/checkout';
import type { CheckoutSummary } from '@app/contract/subscriptions';

/** Monthly or Yearly when recurring, otherwise the plan type text (docs/product.md §2.13 "Checkout"). */
export function planLabel(summary: Pick<CheckoutSummary, 'isRecurring' | 'planType'>) {
  return summary.isRecurring && summary.planType ? planTypeLabels[summary.planType] : oneTimeLabel;
}

export function PlanBadge({ summary }: { summary: Pick<CheckoutSummary, 'isRecurring' | 'planType'> }) {
  return <span className="badge rounded-pill text-bg-primary">{planLabel(summary)}</span>;
}

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
export const formatDollars = (amount: number) => dollars.format(amount);
