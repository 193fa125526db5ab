import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { rolloutMessages } from '@app/contract/app-update-rollouts';
import type { AppUpdateListItem } from '@app/contract/app-updates';
import { FormModal, useFormModal } from '#web/components/form-modal.tsx';
import {
  blankSignature,
  SignatureFields,
  signatureErrorField,
  signatureFormSchema,
  type SignatureFormValues,
} from '#web/components/signature-fields.tsx';
import { useChangeRollout } from '../api/change-rollout.ts';

const schema = z.object({ signature: signatureFormSchema });
type Input = { signature: SignatureFormValues };
const blank: Input = { signature: blankSignature };

/** What the second admin approves, in words. */
const approving = (r: AppUpdateListItem) =>
  r.approvalPending === 'full-stage'
    ? `The rollout of ${r.appName} ${r.versionName} goes from ${r.rolloutPercent} % to every machine.`
    : `${r.appName} ${r.versionName} is offered to the machines it was published for.`;

/**
 * A second admin's approval of a rollout, signed (decision 083): the meaning, the password (and the
 * code with two-step sign-in). A wrong password or code shows under its field; the approval and its
 * signature are kept together or not at all, and the list then shows the signature on the rollout.
 */
export function ApproveRolloutModal({
  release,
  onClose,
}: {
  release: AppUpdateListItem | null;
  onClose: () => void;
}) {
  const change = useChangeRollout();
  const form = useFormModal({ show: release !== null, resolver: zodResolver(schema), blank });
  return (
    <FormModal
      form={form}
      show={release !== null}
      onClose={onClose}
      title={release ? `Approve: ${release.appName} ${release.versionName}` : ''}
      submitLabel="Sign and approve"
      pending={change.isPending}
      onSave={(body) =>
        change.mutateAsync({ id: release!._id, body: { action: 'approve', signature: body.signature } })
      }
      saved={rolloutMessages.changed.approve}
      fieldOfError={signatureErrorField}
    >
      {release ? <p>{approving(release)}</p> : null}
      <SignatureFields form={form} />
    </FormModal>
  );
}
