import { zodResolver } from '@hookform/resolvers/zod';
import {
  breakGlassMessages,
  breakGlassSignOffBodySchema,
  breakGlassTextMax,
  type BreakGlassAccess,
  type BreakGlassSignOffBody,
} from '@app/contract/break-glass';
import { breakGlassTexts } from '@app/contract/break-glass-texts';
import { FormField } from '#web/components/form-field.tsx';
import { FormModal, useFormModal } from '#web/components/form-modal.tsx';
import type { ApiError } from '#web/lib/api-client.ts';
import { formatDateTime } from '#web/lib/format.ts';
import { useSignOffBreakGlass } from '../api/sign-off-break-glass.ts';

const blank: BreakGlassSignOffBody = { note: '' };

/** A 400 naming the note goes under it; every other refusal (409, 403) is a toast. */
const fieldOfError = (error: ApiError) =>
  error.status === 400 &&
  (error.data as { errors?: { path?: unknown }[] } | null)?.errors?.[0]?.path === 'note'
    ? ('note' as const)
    : undefined;

/**
 * Signing off one use (decision 082): the reviewer's note, kept with their name and the time. The
 * API asks for the password first when it is due (decision 046); the console's client shows that.
 */
export function SignOffModal({ access, onClose }: { access: BreakGlassAccess | null; onClose: () => void }) {
  const signOff = useSignOffBreakGlass();
  const form = useFormModal({
    show: access !== null,
    resolver: zodResolver(breakGlassSignOffBodySchema),
    blank,
  });
  return (
    <FormModal
      form={form}
      show={access !== null}
      onClose={onClose}
      title={breakGlassTexts.signOffTitle}
      submitLabel={breakGlassTexts.signOff}
      pending={signOff.isPending}
      onSave={(body) => signOff.mutateAsync({ id: access!._id, body })}
      saved={breakGlassMessages.signedOff}
      fieldOfError={fieldOfError}
    >
      {access ? (
        <>
          <p>
            {breakGlassTexts.signOffIntro(
              `${access.userName} (${access.userEmail})`,
              formatDateTime(access.declaredAt),
            )}
          </p>
          <p>
            <strong>Reason given:</strong> {access.reason}
          </p>
        </>
      ) : null}
      <FormField
        as="textarea"
        label={breakGlassTexts.noteLabel}
        hint={breakGlassTexts.noteHint}
        rows={3}
        maxLength={breakGlassTextMax}
        required
        error={form.formState.errors.note?.message}
        {...form.register('note')}
      />
    </FormModal>
  );
}
