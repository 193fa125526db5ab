import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { z } from 'zod';
import { commandBatchMessages } from '@app/contract/command-batches';
import { groupMessages } from '@app/contract/groups';
import { FormModal, useFormModal } from '#web/components/form-modal.tsx';
import { useCan } from '#web/lib/use-session.ts';
import type { DeviceBulkSelection } from '../api/bulk-device-status.ts';
import { useAddToGroup, useSendCommandBatch, useStaticGroups } from '../api/bulk-machine-operations.ts';
import { BulkAssignCustomer } from './bulk-assign-customer.tsx';
import { CommandForm } from './send-command-modal.tsx';

const machines = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'machine' : 'machines'}`;

/**
 * Device Management's "Send command" (commands.send), "Add to group" (groups.manage) and "Assign to
 * customer" (customers.manage, issue 39 item 2) for the machines picked or all matching (issue 37
 * items 1 and 5): buttons for the selection bar, and their dialogs.
 */
export function DeviceBulkOperations({
  selection,
  count,
}: {
  selection: DeviceBulkSelection;
  count: number;
}) {
  const maySend = useCan('commands.send');
  const mayGroup = useCan('groups.manage');
  const mayAssign = useCan('customers.manage');
  const [open, setOpen] = useState<'command' | 'group' | 'customer' | null>(null);
  const send = useSendCommandBatch(selection);
  const close = () => setOpen(null);
  return (
    <>
      {maySend ? (
        <button type="button" className="btn btn-sm btn-outline-primary" onClick={() => setOpen('command')}>
          Send command
        </button>
      ) : null}
      {mayGroup ? (
        <button type="button" className="btn btn-sm btn-outline-primary" onClick={() => setOpen('group')}>
          Add to group
        </button>
      ) : null}
      {mayAssign ? (
        <button type="button" className="btn btn-sm btn-outline-primary" onClick={() => setOpen('customer')}>
          Assign to customer
        </button>
      ) : null}
      {mayAssign ? (
        <BulkAssignCustomer selection={selection} count={count} show={open === 'customer'} onClose={close} />
      ) : null}
      {maySend ? (
        <CommandForm
          title={`Send a command to ${machines(count)}`}
          note="One command to several machines asks for your password, and waits for another admin's approval when the server asks for one."
          show={open === 'command'}
          onClose={close}
          pending={send.isPending}
          send={(body) => send.mutateAsync(body)}
          saved={commandBatchMessages.queued(count)}
        />
      ) : null}
      {mayGroup ? (
        <AddToGroupModal selection={selection} count={count} show={open === 'group'} onClose={close} />
      ) : null}
    </>
  );
}

const groupChoice = z.object({ groupId: z.string().min(1, 'Choose a group') });
type GroupChoice = z.infer<typeof groupChoice>;
const resolver = zodResolver(groupChoice);
const blank: GroupChoice = { groupId: '' };

function AddToGroupModal({
  selection,
  count,
  show,
  onClose,
}: {
  selection: DeviceBulkSelection;
  count: number;
  show: boolean;
  onClose: () => void;
}) {
  const form = useFormModal({ show, resolver, blank });
  const groups = useStaticGroups(show);
  const add = useAddToGroup(selection);
  const options = groups.data ?? [];
  return (
    <FormModal
      form={form}
      show={show}
      onClose={onClose}
      title={`Add ${machines(count)} to a group`}
      submitLabel="Add to group"
      pending={add.isPending}
      onSave={(choice) => add.mutateAsync(choice.groupId)}
      saved={groupMessages.membersAdded(count)}
    >
      {form.select(
        'groupId',
        'Group',
        <>
          <option value="">{groups.isPending ? 'Loading groups...' : 'Choose a static group'}</option>
          {options.map((g) => (
            <option key={g._id} value={g._id}>
              {g.name} ({machines(g.machineCount)})
            </option>
          ))}
        </>,
        groups.isError
          ? 'The groups could not be loaded: close and try again.'
          : groups.data && options.length === 0
            ? 'No static group yet: create one on the Groups screen.'
            : 'A dynamic group takes the machines its filter matches, so it is not offered.',
      )}
    </FormModal>
  );
}
