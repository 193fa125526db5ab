import { subscriptionStatusLabel } from '@app/contract/subscriptions';
import { StatusBadge, type StatusTone } from '#web/components/status-badge.tsx';

const tones: Record<number, StatusTone> = { 1: 'warning', 2: 'success', 3: 'secondary', 4: 'danger' };

/** 1 Pending, 2 Complete, 3 Expired, 4 Failed; anything else N/A (docs/product.md §3.4). */
export function SubscriptionStatusBadge({ status }: { status: unknown }) {
  const tone = typeof status === 'number' ? tones[status] : undefined;
  return tone ? (
    <StatusBadge label={subscriptionStatusLabel(status)} tone={tone} />
  ) : (
    <>{subscriptionStatusLabel(status)}</>
  );
}
