import { useState } from 'react';
import { useNavigate } from 'react-router';
import { safetyNoticeTexts } from '@app/contract/safety-notices-texts';
import { LoadError } from '#web/components/load-error.tsx';
import { PageHeader } from '#web/components/page-header.tsx';
import { AddButton, PagedTable } from '#web/components/paged-table.tsx';
import { DEFAULT_PAGE_SIZES } from '#web/components/pager.tsx';
import { useUrlListState } from '#web/lib/use-url-list-state.ts';
import { useSafetyNotices } from '../api/get-safety-notices.ts';
import { noticeColumns } from '../components/notice-columns.tsx';
import { NoticeFormModal } from '../components/notice-form-modal.tsx';
import { safetyNoticeRoute } from '../safety-notices-route.ts';

/**
 * /admin/safety-notices (decision 084): every field safety notice, newest first, with how many of
 * its machines were acknowledged and remedied. A new notice is a draft; its page previews and sends it.
 */
export function SafetyNoticesPage() {
  const list = useUrlListState({ pageSizes: DEFAULT_PAGE_SIZES });
  const [creating, setCreating] = useState(false);
  const navigate = useNavigate();
  const query = useSafetyNotices({ page: list.page, limit: list.limit });
  const { data } = query;
  return (
    <>
      <PageHeader
        title={safetyNoticeTexts.title}
        actions={<AddButton onClick={() => setCreating(true)}>{safetyNoticeTexts.create}</AddButton>}
      >
        <p className="mt-2 mb-0">{safetyNoticeTexts.intro}</p>
      </PageHeader>
      {query.isError && !data ? (
        <LoadError
          error={query.error}
          fallback="The notices could not be loaded."
          onRetry={() => void query.refetch()}
        />
      ) : (
        <PagedTable
          label={safetyNoticeTexts.title}
          columns={noticeColumns}
          rows={data?.notices}
          getRowKey={(n) => n._id}
          emptyText={safetyNoticeTexts.empty}
          isLoading={query.isPending || (query.isFetching && !data)}
          list={list}
          totalPages={data?.totalPages}
          total={data?.total}
          noun={['notice', 'notices']}
          pagerLabel="Notice pages"
        />
      )}
      <NoticeFormModal
        show={creating}
        onClose={() => setCreating(false)}
        onSaved={(notice) => void navigate(safetyNoticeRoute.href({ id: notice._id }))}
      />
    </>
  );
}
