import { subscriptionStatusLabel, type Device } from '@app/contract/devices';
import { StatusBadge, type StatusTone } from '#web/components/status-badge.tsx';

const tones: Record<number, StatusTone> = { 1: 'warning', 2: 'success', 3: 'secondary', 4: 'danger' };

/** The device's subscription: the first of subscriptionDetails decides (docs/product.md §3.2); anything else is N/A. */
export function subscriptionOf(device: Device) {
  const latest = device.subscriptionDetails[0];
  const status = latest?.status ?? device.subscriptionStatus;
  return { status, label: subscriptionStatusLabel(status), latest };
}

export function SubscriptionStatus({ device }: { device: Device }) {
  const { status, label } = subscriptionOf(device);
  return status != null && tones[status] ? <StatusBadge label={label} tone={tones[status]} /> : <>{label}</>;
}
