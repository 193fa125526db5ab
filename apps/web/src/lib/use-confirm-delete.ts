import { useState } from 'react';
import { notifyError } from './api-client.ts';
import { notify } from './notify.ts';

type DeleteMutation = { mutateAsync: (id: string) => Promise<{ msg?: string }>; isPending: boolean };

/**
 * The row a list page asks to delete, and the props of its ConfirmModal: Yes deletes it, toasts the
 * server's message (or `deletedText`) or the error, and closes the modal either way. `onDeleted`
 * runs after a delete that succeeded (a detail page leaves for its list).
 */
export function useConfirmDelete<T extends { _id: string }>(
  remove: DeleteMutation,
  deletedText: string,
  onDeleted?: () => void,
) {
  const [deleting, setDeleting] = useState<T | null>(null);

  const onConfirm = async () => {
    if (!deleting) return;
    try {
      const response = await remove.mutateAsync(deleting._id);
      notify.success(response.msg || deletedText);
      onDeleted?.();
    } catch (error) {
      notifyError(error);
    } finally {
      setDeleting(null);
    }
  };

  return {
    ask: setDeleting,
    modal: {
      show: deleting !== null,
      isPending: remove.isPending,
      onConfirm,
      onCancel: () => setDeleting(null),
    },
  };
}
