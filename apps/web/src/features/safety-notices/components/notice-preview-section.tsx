import { useState } from 'react';
import type { SafetyNotice } from '@app/contract/safety-notices';
import { safetyNoticeTexts } from '@app/contract/safety-notices-texts';
import { SectionCard } from '#web/components/details-card.tsx';
import { LoadError } from '#web/components/load-error.tsx';
import { TableWithPager } from '#web/components/paged-table.tsx';
import { DEFAULT_PAGE_SIZES } from '#web/components/pager.tsx';
import { useUrlListState } from '#web/lib/use-url-list-state.ts';
import { useNoticePreview } from '../api/get-notice-preview.ts';
import { previewColumns } from './notice-columns.tsx';
import { SendNoticeModal } from './send-notice-modal.tsx';

/** A draft's affected machines as its selection matches them now, and the send button. */
export function NoticePreviewSection({ notice }: { notice: SafetyNotice }) {
  const list = useUrlListState({ pageSizes: DEFAULT_PAGE_SIZES });
  const [sending, setSending] = useState(false);
  const query = useNoticePreview(notice._id, { page: list.page, limit: list.limit }, true);
  const { data } = query;
  const total = data?.total ?? 0;
  return (
    <SectionCard
      title={safetyNoticeTexts.preview}
      actions={
        <button
          type="button"
          className="btn btn-primary"
          disabled={!data || total === 0}
          onClick={() => setSending(true)}
        >
          {safetyNoticeTexts.send}
        </button>
      }
    >
      <p>{safetyNoticeTexts.previewIntro}</p>
      {data ? (
        <p>
          {total} {total === 1 ? 'machine' : 'machines'}, {data.contacts}{' '}
          {data.contacts === 1 ? 'clinic contact' : 'clinic contacts'}, {data.noContact} without contact.
        </p>
      ) : null}
      {query.isError && !data ? (
        <LoadError
          error={query.error}
          fallback="The affected machines could not be loaded."
          onRetry={() => void query.refetch()}
        />
      ) : (
        <TableWithPager
          label={safetyNoticeTexts.preview}
          columns={previewColumns}
          rows={data?.machines}
          getRowKey={(m) => m.deviceId ?? m.serialNumber}
          emptyText={safetyNoticeTexts.previewEmpty}
          isLoading={query.isPending}
          list={list}
          totalPages={data?.totalPages}
          total={data?.total}
          noun={['machine', 'machines']}
          pagerLabel="Affected machine pages"
        />
      )}
      <SendNoticeModal
        notice={notice}
        machines={total}
        contacts={data?.contacts ?? 0}
        show={sending}
        onClose={() => setSending(false)}
      />
    </SectionCard>
  );
}
