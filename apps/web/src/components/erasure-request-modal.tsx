import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import {
  erasureMessages,
  erasureRequestBodySchema,
  erasureTextMax,
  type ErasureRequest,
} from '@app/contract/erasure';
import {
  erasureChannelLabels,
  erasureChannels,
  erasurePaths,
  erasureRequestScreenPath,
  erasureTexts,
} from '@app/contract/erasure-texts';
import { apiClient, type ApiError } from '../lib/api-client.ts';
import { useCan } from '../lib/use-session.ts';
import { FormField } from './form-field.tsx';
import { FormModal, useFormModal } from './form-modal.tsx';

/*
 * Recording a patient's erasure request from the patient page (decision 085). Shared, because the
 * patient page (features/devices) and the Erasure Requests screen (features/erasure) both use the
 * request, and a feature never imports another. Once recorded, the admin lands on the request's page.
 */

const today = () => new Date().toISOString().slice(0, 10);
const formSchema = erasureRequestBodySchema.omit({ patientId: true }).extend({
  // The select starts empty: 'choose one' is the channel's own message.
  channel: z.string().pipe(erasureRequestBodySchema.shape.channel),
});
type Input = { channel: string; receivedOn: string; note: string };

const fieldOfError = (error: ApiError) => {
  const path = (error.data as { errors?: { path?: unknown }[] } | null)?.errors?.[0]?.path;
  return error.status === 400 && (path === 'channel' || path === 'receivedOn' || path === 'note')
    ? path
    : undefined;
};

function ErasureRequestModal({
  patientId,
  show,
  onClose,
}: {
  patientId: string;
  show: boolean;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  const record = useMutation({
    mutationFn: (body: z.output<typeof formSchema>) =>
      apiClient.post<ErasureRequest>(erasurePaths.list, { ...body, patientId }),
  });
  // One object for the dialog's life: the form is filled afresh whenever `blank` changes.
  const [blank] = useState<Input>(() => ({ channel: '', receivedOn: today(), note: '' }));
  const form = useFormModal({ show, resolver: zodResolver(formSchema), blank });
  return (
    <FormModal
      form={form}
      show={show}
      onClose={onClose}
      title={erasureTexts.startTitle}
      submitLabel={erasureTexts.start}
      pending={record.isPending}
      onSave={async (body) => {
        const answer = await record.mutateAsync(body);
        void navigate(erasureRequestScreenPath(answer.data._id));
        return answer;
      }}
      saved={erasureMessages.recorded}
      fieldOfError={fieldOfError}
    >
      <p>{erasureTexts.startIntro}</p>
      {form.select(
        'channel',
        erasureTexts.channelLabel,
        <>
          <option value="">Choose how</option>
          {erasureChannels.map((c) => (
            <option key={c} value={c}>
              {erasureChannelLabels[c]}
            </option>
          ))}
        </>,
      )}
      {form.field('receivedOn', erasureTexts.receivedLabel, { type: 'date' })}
      <FormField
        as="textarea"
        label={erasureTexts.noteLabel}
        hint={erasureTexts.noteHint}
        rows={3}
        maxLength={erasureTextMax}
        error={form.formState.errors.note?.message}
        {...form.register('note')}
      />
    </FormModal>
  );
}

/** The patient page's button, for a role carrying erasure.manage; nothing for anyone else. */
export function ErasureRequestAction({ patientId }: { patientId: string }) {
  const may = useCan('erasure.manage');
  const [open, setOpen] = useState(false);
  if (!may) return null;
  return (
    <>
      <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => setOpen(true)}>
        {erasureTexts.start}
      </button>
      <ErasureRequestModal patientId={patientId} show={open} onClose={() => setOpen(false)} />
    </>
  );
}
