import { z } from 'zod';
import { zodResolver } from '@hookform/resolvers/zod';
import type { SafetyNotice } from '@app/contract/safety-notices';
import { safetyNoticeTexts } from '@app/contract/safety-notices-texts';
import { FormModal, useFormModal } from '#web/components/form-modal.tsx';
import {
  blankSignature,
  signatureErrorField,
  signatureFormSchema,
  SignatureFields,
} from '#web/components/signature-fields.tsx';
import { useSendSafetyNotice } from '../api/send-safety-notice.ts';

const sendFormSchema = z.object({ signature: signatureFormSchema });
const blank = { signature: blankSignature };

/**
 * Sending a notice, signed (decision 083): the sender's meaning and password (and code) sign what
 * is sent: its texts, its remedy and the machines frozen with their app versions.
 */
export function SendNoticeModal({
  notice,
  machines,
  contacts,
  show,
  onClose,
}: {
  notice: SafetyNotice;
  machines: number;
  contacts: number;
  show: boolean;
  onClose: () => void;
}) {
  const send = useSendSafetyNotice();
  const form = useFormModal({ show, resolver: zodResolver(sendFormSchema), blank });
  return (
    <FormModal
      form={form}
      show={show}
      onClose={onClose}
      title={safetyNoticeTexts.sendTitle}
      submitLabel={safetyNoticeTexts.send}
      pending={send.isPending}
      onSave={(body) => send.mutateAsync({ id: notice._id, body })}
      saved="Notice sent"
      fieldOfError={signatureErrorField}
    >
      <p>
        <strong>{notice.reference}</strong>: {notice.title}
      </p>
      <p>{safetyNoticeTexts.sendIntro(machines, contacts)}</p>
      <SignatureFields form={form} meanings={['responsibility', 'approval']} />
    </FormModal>
  );
}
