import { outboxTexts, type OutboxMessage } from '@app/contract/outbox';
import { Modal } from '#web/components/modal.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { formatDateTime, orNA } from '#web/lib/format.ts';
import { useOutboxMessage } from '../api/get-outbox-message.ts';
import { MailStatusBadge } from './outbox-columns.tsx';

/** One message: its details and, unless it holds a code or a link, its text. */
export function OutboxMessageModal({
  message,
  onClose,
}: {
  message: OutboxMessage | null;
  onClose: () => void;
}) {
  // A message with a code or a link is not even fetched: its text would be null anyway.
  const detail = useOutboxMessage(message && !message.holdsSecret ? message._id : null);
  let body;
  if (message?.holdsSecret) body = <p className="text-body-secondary mb-0">{outboxTexts.secretBody}</p>;
  else if (detail.isPending) body = <Spinner label="Loading the message" />;
  else body = <pre className="mb-0 text-wrap">{detail.data?.text || outboxTexts.noBody}</pre>;
  return (
    <Modal show={message !== null} onClose={onClose} title={message?.subject ?? outboxTexts.view}>
      {message ? (
        <>
          <dl className="row mb-3">
            <dt className="col-sm-3">To</dt>
            <dd className="col-sm-9">{message.to}</dd>
            <dt className="col-sm-3">Status</dt>
            <dd className="col-sm-9">
              <MailStatusBadge status={message.status} />
            </dd>
            <dt className="col-sm-3">Created</dt>
            <dd className="col-sm-9">{formatDateTime(message.createdAt)}</dd>
            <dt className="col-sm-3">Last Error</dt>
            <dd className="col-sm-9">{orNA(message.lastError)}</dd>
          </dl>
          {body}
        </>
      ) : null}
    </Modal>
  );
}
