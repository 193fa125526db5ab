import { useState } from 'react';
import type { BulkResult } from '@app/contract/bulk-actions';
import { notifyError } from '../lib/api-client.ts';

/**
 * A bulk action's three steps: asked (the confirmation shows), run (Yes pending), answered (the
 * results show, row by row). `run` is the feature's mutation; `onAnswered` clears the selection.
 */
export function useBulkAction<Action>(
  run: (action: Action) => Promise<{ data: BulkResult }>,
  onAnswered: () => void,
) {
  const [asking, setAsking] = useState<Action | null>(null);
  const [pending, setPending] = useState(false);
  const [answer, setAnswer] = useState<{ action: Action; result: BulkResult } | null>(null);

  const confirm = async () => {
    if (asking === null) return;
    setPending(true);
    try {
      const response = await run(asking);
      setAnswer({ action: asking, result: response.data });
      onAnswered();
    } catch (error) {
      // A refusal of the whole request (over the limit, a permission): its message as a toast.
      notifyError(error);
    } finally {
      setPending(false);
      setAsking(null);
    }
  };

  return {
    ask: setAsking,
    asking,
    confirm: {
      show: asking !== null,
      isPending: pending,
      onConfirm: () => void confirm(),
      onCancel: () => setAsking(null),
    },
    answer,
    closeAnswer: () => setAnswer(null),
  };
}
