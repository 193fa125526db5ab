import { useId, useState, type FormEvent } from 'react';
import type { ListKey } from '@app/contract/preferences';
import { preferenceMessages } from '@app/contract/preferences';
import { FormField } from '#web/components/form-field.tsx';
import { Modal } from '#web/components/modal.tsx';
import { ModalFormFooter } from '#web/components/modal-form-footer.tsx';
import { errorMessage } from '#web/lib/api-client.ts';
import { notify } from '#web/lib/notify.ts';
import { useSaveView } from '#web/lib/saved-views.ts';

/** Names the list's current view (its URL query) and saves it, private or shared with every admin. */
export function SaveViewModal({
  list,
  query,
  show,
  onClose,
}: {
  list: ListKey;
  query: string;
  show: boolean;
  onClose: () => void;
}) {
  const formId = useId();
  const [name, setName] = useState('');
  const [shared, setShared] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const save = useSaveView();
  const close = () => {
    setName('');
    setShared(false);
    setError(undefined);
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setError(preferenceMessages.viewNameRequired);
    save.mutate(
      { list, name: name.trim(), query, shared },
      {
        onSuccess: () => {
          notify.success(preferenceMessages.viewSaved);
          close();
        },
        // A taken name or a refused field: said under the name, what was typed kept.
        onError: (failure) => setError(errorMessage(failure)),
      },
    );
  };
  return (
    <Modal
      show={show}
      onClose={close}
      title="Save View"
      staticBackdrop
      footer={
        <ModalFormFooter form={formId} onCancel={close} pending={save.isPending} submitLabel="Save View" />
      }
    >
      <form id={formId} onSubmit={submit} noValidate>
        <FormField
          label="Name"
          name="name"
          value={name}
          maxLength={60}
          error={error}
          onChange={(event) => (setName(event.target.value), setError(undefined))}
        />
        <div className="form-check">
          <input
            className="form-check-input"
            type="checkbox"
            id={`${formId}-shared`}
            checked={shared}
            onChange={(event) => setShared(event.target.checked)}
          />
          <label className="form-check-label" htmlFor={`${formId}-shared`}>
            Share with every admin
          </label>
        </div>
      </form>
    </Modal>
  );
}
