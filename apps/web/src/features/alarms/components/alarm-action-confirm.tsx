import { useState } from 'react';
import { alarmTexts, type Alarm } from '@app/contract/alarms';
import { ConfirmModal } from '#web/components/confirm-modal.tsx';
import { notifyError } from '#web/lib/api-client.ts';
import { notify } from '#web/lib/notify.ts';
import { useAcknowledgeAlarm } from '../api/acknowledge-alarm.ts';
import { useResolveAlarm } from '../api/resolve-alarm.ts';

export type AlarmAction = 'acknowledge' | 'resolve';

const texts = {
  acknowledge: {
    title: alarmTexts.acknowledgeTitle,
    text: alarmTexts.acknowledgeText,
    confirm: alarmTexts.acknowledge,
    pending: alarmTexts.acknowledging,
  },
  resolve: {
    title: alarmTexts.resolveTitle,
    text: alarmTexts.resolveText,
    confirm: alarmTexts.resolve,
    pending: alarmTexts.resolving,
  },
} as const;

/**
 * Acknowledge and Resolve ask first: `ask(alarm, action)` opens the confirmation; its confirm button
 * sends the request, toasts the server's message (or the error: another admin may have been first)
 * and closes.
 */
export function useAlarmActionConfirm() {
  const [asked, setAsked] = useState<{ alarm: Alarm; action: AlarmAction } | null>(null);
  const acknowledge = useAcknowledgeAlarm();
  const resolve = useResolveAlarm();
  const mutation = asked?.action === 'resolve' ? resolve : acknowledge;
  const words = texts[asked?.action ?? 'acknowledge'];

  const onConfirm = async () => {
    if (!asked) return;
    try {
      notify.success((await mutation.mutateAsync(asked.alarm._id)).msg);
    } catch (error) {
      notifyError(error);
    } finally {
      setAsked(null);
    }
  };

  const modal = (
    <ConfirmModal
      show={asked !== null}
      title={words.title}
      text={asked ? words.text(asked.alarm.machineNumber, asked.alarm.rule) : ''}
      confirmText={words.confirm}
      cancelText="Cancel"
      pendingText={words.pending}
      isPending={mutation.isPending}
      onConfirm={() => void onConfirm()}
      onCancel={() => setAsked(null)}
    />
  );
  return { ask: (alarm: Alarm, action: AlarmAction) => setAsked({ alarm, action }), modal };
}
