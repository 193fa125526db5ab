import {
  subscriptionOperationMessages as messages,
  type SubscriptionDetail,
  type SubscriptionOperationName,
} from '@app/contract/subscription-operations';
import { ConfirmModal } from '#web/components/confirm-modal.tsx';
import { notifyError } from '#web/lib/api-client.ts';
import { notify } from '#web/lib/notify.ts';
import { useSubscriptionOperation } from '../api/run-subscription-operation.ts';
import { operationLabel, type OperationDialogProps } from './operation-texts.ts';

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** The operations that take no input: a question, and Yes runs it. */
const confirmations = {
  resend: {
    text: (d: SubscriptionDetail) => `Mail the payment link to ${d.subscription.email} again?`,
    confirm: 'Send',
    pending: 'Sending...',
    done: messages.resent,
  },
  resume: {
    text: () => "Collect the plan's payments again from the card on file?",
    confirm: 'Resume',
    pending: 'Resuming...',
    done: messages.resumed,
  },
  retry: {
    text: (d: SubscriptionDetail) =>
      `Charge ${dollars.format(d.subscription.amount)} to the card on file now?`,
    confirm: 'Retry',
    pending: 'Retrying...',
    done: messages.retried,
  },
  cardUpdate: {
    text: (d: SubscriptionDetail) => `Mail ${d.subscription.email} a link to change the plan's card?`,
    confirm: 'Send',
    pending: 'Sending...',
    done: messages.cardUpdateSent,
  },
} as const;
type Confirmed = keyof typeof confirmations;
const isConfirmed = (name: SubscriptionOperationName | undefined): name is Confirmed =>
  name !== undefined && name in confirmations;

export function OperationConfirmDialog({ target, onClose }: OperationDialogProps) {
  const name = target?.name;
  const run = useSubscriptionOperation(target?.detail.subscription._id ?? '');
  const texts = isConfirmed(name) ? confirmations[name] : null;
  return (
    <ConfirmModal
      show={texts !== null}
      title={isConfirmed(name) ? operationLabel(name) : ''}
      text={texts && target ? texts.text(target.detail) : ''}
      confirmText={texts?.confirm}
      pendingText={texts?.pending}
      cancelText="Cancel"
      isPending={run.isPending}
      onCancel={onClose}
      onConfirm={async () => {
        if (!isConfirmed(name)) return;
        try {
          const answer = await run.mutateAsync({ name });
          notify.success(answer.msg || confirmations[name].done);
        } catch (error) {
          notifyError(error);
        }
        onClose();
      }}
    />
  );
}
