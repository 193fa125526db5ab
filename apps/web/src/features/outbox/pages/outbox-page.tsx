import { useState } from 'react';
import { mailStatusLabels, mailStatuses, outboxTexts, type OutboxMessage } from '@app/contract/outbox';
import { ConfirmModal } from '#web/components/confirm-modal.tsx';
import { FilterSelect } from '#web/components/filter-select.tsx';
import { PageHeader } from '#web/components/page-header.tsx';
import { TableWithPager } from '#web/components/paged-table.tsx';
import { DEFAULT_PAGE_SIZES } from '#web/components/pager.tsx';
import { SearchBox } from '#web/components/search-box.tsx';
import { notifyError } from '#web/lib/api-client.ts';
import { notify } from '#web/lib/notify.ts';
import { useUrlFilter } from '#web/lib/use-url-filter.ts';
import { useUrlListState } from '#web/lib/use-url-list-state.ts';
import { useOutbox } from '../api/get-outbox.ts';
import { useResendMail } from '../api/resend-mail.ts';
import { outboxColumns } from '../components/outbox-columns.tsx';
import { OutboxMessageModal } from '../components/outbox-message-modal.tsx';

const statusOptions = mailStatuses.map((status) => ({ value: status, label: mailStatusLabels[status] }));

/**
 * /admin/outbox (issue 35 item 3): every mail the server sent or is trying to send, newest first:
 * recipient, subject, status, tries and last error. A failed one can be sent again; a message's text
 * is shown unless it holds a one-time code or a link. The status, search and page live in the URL.
 */
export function OutboxPage() {
  const list = useUrlListState({ pageSizes: DEFAULT_PAGE_SIZES });
  const [status, setStatus] = useUrlFilter('status', mailStatuses, '');
  const [viewing, setViewing] = useState<OutboxMessage | null>(null);
  const [resending, setResending] = useState<OutboxMessage | null>(null);
  const resend = useResendMail();
  const { data, isPending, isFetching } = useOutbox({
    page: list.page,
    limit: list.limit,
    status: status || undefined,
    search: list.debouncedSearch || undefined,
  });

  const confirmResend = async () => {
    if (!resending) return;
    try {
      notify.success((await resend.mutateAsync(resending._id)).msg);
    } catch (error) {
      notifyError(error);
    } finally {
      setResending(null);
    }
  };

  const actions = (message: OutboxMessage) => (
    <span className="d-inline-flex flex-wrap gap-1">
      <button
        type="button"
        className="btn btn-sm btn-outline-secondary"
        aria-label={`${outboxTexts.view} the message to ${message.to}: ${message.subject}`}
        onClick={() => setViewing(message)}
      >
        {outboxTexts.view}
      </button>
      {message.status === 'failed' ? (
        <button
          type="button"
          className="btn btn-sm btn-outline-primary"
          aria-label={`${outboxTexts.resend}: the message to ${message.to}: ${message.subject}`}
          onClick={() => setResending(message)}
        >
          {outboxTexts.resend}
        </button>
      ) : null}
    </span>
  );

  return (
    <>
      <PageHeader title={outboxTexts.title} />
      {data && !data.delivers ? (
        <p className="alert alert-info" role="note">
          {outboxTexts.notDelivered}
        </p>
      ) : null}
      <div className="card shadow-sm">
        <div className="card-body">
          <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-3">
            <SearchBox label={outboxTexts.searchLabel} value={list.search} onChange={list.setSearch} />
            <FilterSelect
              label="Status"
              allLabel={outboxTexts.allStatuses}
              value={status}
              options={statusOptions}
              onChange={setStatus}
            />
          </div>
          <TableWithPager
            label="Messages"
            columns={outboxColumns}
            rows={data?.messages}
            getRowKey={(message) => message._id}
            emptyText={outboxTexts.empty}
            isLoading={isPending || (isFetching && !data)}
            list={list}
            totalPages={data?.totalPages}
            total={data?.total}
            noun={['message', 'messages']}
            pagerLabel="Outbox pages"
            actions={actions}
          />
        </div>
      </div>
      <OutboxMessageModal message={viewing} onClose={() => setViewing(null)} />
      <ConfirmModal
        show={resending !== null}
        title={outboxTexts.resendTitle}
        text={resending ? outboxTexts.resendText(resending.to) : ''}
        confirmText={outboxTexts.resend}
        cancelText="Cancel"
        pendingText="Sending..."
        isPending={resend.isPending}
        onConfirm={() => void confirmResend()}
        onCancel={() => setResending(null)}
      />
    </>
  );
}
