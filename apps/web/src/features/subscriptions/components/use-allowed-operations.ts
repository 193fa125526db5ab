import type { SubscriptionDetail } from '@app/contract/subscription-operations';
import { useHeldPermissions } from '#web/lib/use-session.ts';
import { operations } from './operation-texts.ts';

/**
 * The operations to offer on a subscription: those its state allows now (the API says, in its
 * detail) and whose permission the admin's role carries (decision 047). None before the detail is
 * known.
 */
export function useAllowedOperations(detail: SubscriptionDetail | null | undefined) {
  const held = useHeldPermissions();
  if (!detail) return [];
  return operations.filter((o) => detail.operations[o.name] === true && held.includes(o.permission));
}
