import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  clinicPortalApiPaths,
  clinicPortalMessages,
  clinicPortalTexts,
} from '@app/contract/clinic-portal-texts';
import { demoCardFormSchema, type DemoCardInput } from '@app/contract/demo-card';
import { FormModal, useFormModal } from '#web/components/form-modal.tsx';
import { apiClient } from '#web/lib/api-client.ts';
import { clinicPortalKeys } from '../api/keys.ts';

const blank: DemoCardInput = { cardNumber: '', expiry: '', cvc: '' };

/**
 * The demo provider's card form (it has no page of its own, as Stripe's Billing Portal is): Stripe's
 * test card numbers; the server keeps only the last four digits (decision 091).
 */
export function DemoCardModal({
  subscriptionId,
  onClose,
}: {
  subscriptionId: string | null;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (body: DemoCardInput) =>
      apiClient.post<{ cardLast4: string }>(clinicPortalApiPaths.demoCard(subscriptionId!), body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clinicPortalKeys.lists() }),
  });
  const show = subscriptionId !== null;
  const form = useFormModal({ show, resolver: zodResolver(demoCardFormSchema), blank });
  return (
    <FormModal
      form={form}
      show={show}
      onClose={onClose}
      title={clinicPortalTexts.updateCard}
      submitLabel="Save card"
      pending={save.isPending}
      onSave={(body) => save.mutateAsync(body)}
      saved={clinicPortalMessages.cardUpdated}
    >
      {form.field('cardNumber', 'Card number', { autoComplete: 'cc-number', inputMode: 'numeric' })}
      {form.field('expiry', 'Expiry (MM/YY)', { autoComplete: 'cc-exp' })}
      {form.field('cvc', 'CVC', { autoComplete: 'cc-csc', inputMode: 'numeric' })}
    </FormModal>
  );
}
