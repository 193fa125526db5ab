import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { SubscriptionPayment } from '@app/contract/subscription-operations';
import type { Subscription } from '@app/contract/subscriptions';
import { RowMenu, type RowMenuItem } from '#web/components/row-menu.tsx';
import { paths } from '#web/lib/paths.ts';
import { useSubscription } from '../api/get-subscription.ts';
import type { OperationTarget } from './operation-texts.ts';
import { knownReceiptUrl, receiptName } from './payment-receipt.tsx';
import { useAllowedOperations } from './use-allowed-operations.ts';

/**
 * A list row's menu: View, then the operations the subscription's state allows and the admin's role
 * carries, and the latest payment's receipt. What the state allows is the API's to say (its detail),
 * so the detail is fetched once the pointer or focus reaches the button, and the subscription's page
 * then opens from the cache.
 */
export function SubscriptionRowMenu({
  subscription: s,
  onChoose,
  onIntent,
}: {
  subscription: Subscription;
  onChoose: (target: OperationTarget) => void;
  /** The pointer or focus reached the menu: start loading what choosing an operation opens. */
  onIntent?: () => void;
}) {
  const navigate = useNavigate();
  const [wanted, setWanted] = useState(false);
  const { data: detail, isPending } = useSubscription(s._id, wanted);
  const allowed = useAllowedOperations(detail);
  const latest = detail?.payments.reduce<SubscriptionPayment | undefined>(
    (newest, p) => (newest && newest.paidAt >= p.paidAt ? newest : p),
    undefined,
  );
  const receipt = latest ? knownReceiptUrl(latest) : null;
  const items: RowMenuItem[] = [
    { label: 'View', onSelect: () => navigate(paths.viewSubscription.href({ id: s._id })) },
    ...(detail
      ? allowed.map((op) => ({
          label: op.label,
          danger: op.danger,
          onSelect: () => onChoose({ name: op.name, detail }),
        }))
      : []),
    ...(latest && receipt ? [{ label: receiptName(latest), href: receipt }] : []),
  ];
  return (
    <RowMenu
      label={`Actions for ${s.fullName}`}
      items={items}
      pending={wanted && isPending}
      onIntent={() => {
        setWanted(true);
        onIntent?.();
      }}
    />
  );
}
