import { useState } from 'react';
import { useParams } from 'react-router';
import type { SafetyNotice } from '@app/contract/safety-notices';
import {
  remedyKindLabels,
  safetyNoticeKindLabels,
  safetyNoticeStateLabels,
  safetyNoticeTexts,
} from '@app/contract/safety-notices-texts';
import { BackButton } from '#web/components/back-button.tsx';
import { DetailsCard } from '#web/components/details-card.tsx';
import { LoadError } from '#web/components/load-error.tsx';
import { PageHeader } from '#web/components/page-header.tsx';
import { SignatureLine } from '#web/components/signature-line.tsx';
import { formatDateTime } from '#web/lib/format.ts';
import { useSafetyNotice } from '../api/get-safety-notice.ts';
import { NoticeFormModal } from '../components/notice-form-modal.tsx';
import { NoticePreviewSection } from '../components/notice-preview-section.tsx';
import { NoticeStatusSection } from '../components/notice-status-section.tsx';
import { safetyNoticesRoute } from '../safety-notices-route.ts';

const selectionText = (n: SafetyNotice) =>
  [
    n.selection.serialRanges.length
      ? `Serials ${n.selection.serialRanges.map((r) => (r.from === r.to ? r.from : `${r.from} to ${r.to}`)).join(', ')}`
      : null,
    n.selection.appVersionCodes.length ? `App versions ${n.selection.appVersionCodes.join(', ')}` : null,
    n.selection.groupId ? `Group ${n.selection.groupName ?? '(deleted)'}` : null,
  ]
    .filter(Boolean)
    .join('; ');

/**
 * /admin/safety-notices/{id} (decision 084): the notice; a draft shows the machines its selection
 * matches now and is sent, signed, from here; a sent one shows its signature and the status per machine.
 */
export function SafetyNoticePage() {
  const { id = '' } = useParams();
  const query = useSafetyNotice(id);
  const [editing, setEditing] = useState(false);
  const notice = query.data;
  if (query.isError && !notice)
    return (
      <LoadError
        error={query.error}
        fallback="The notice could not be loaded."
        onRetry={() => void query.refetch()}
      />
    );
  const draft = notice?.state === 'draft';
  return (
    <>
      <PageHeader
        title={notice ? `${safetyNoticeTexts.ackTitle} ${notice.reference}` : 'Field Safety Notice'}
        actions={
          <>
            <BackButton to={safetyNoticesRoute.href()} />
            {draft ? (
              <button type="button" className="btn btn-outline-primary" onClick={() => setEditing(true)}>
                Change draft
              </button>
            ) : null}
          </>
        }
      />
      <DetailsCard
        title="Notice"
        isLoading={query.isPending}
        missing={!query.isPending && !notice}
        missingText="This notice does not exist."
        items={
          notice
            ? [
                { label: 'Title', value: notice.title },
                { label: 'Kind', value: safetyNoticeKindLabels[notice.kind] },
                { label: 'State', value: safetyNoticeStateLabels[notice.state] },
                { label: 'Description', value: notice.description },
                { label: 'What the clinic must do', value: notice.remedyText },
                { label: 'Affected machines', value: selectionText(notice) },
                {
                  label: 'Remedy',
                  value: notice.remedy
                    ? `${remedyKindLabels[notice.remedy.kind]}: ${notice.remedy.label}`
                    : 'None',
                },
                { label: 'Drafted', value: `${formatDateTime(notice.createdAt)} by ${notice.createdBy}` },
                {
                  label: 'Sent',
                  value: notice.signature ? (
                    <SignatureLine signature={notice.signature} />
                  ) : notice.sentAt ? (
                    `${formatDateTime(notice.sentAt)} by ${notice.sentBy ?? ''}`
                  ) : (
                    'Not yet'
                  ),
                },
              ]
            : []
        }
      />
      {notice && draft ? <NoticePreviewSection notice={notice} /> : null}
      {notice && !draft ? <NoticeStatusSection notice={notice} /> : null}
      {notice && draft ? (
        <NoticeFormModal show={editing} notice={notice} onClose={() => setEditing(false)} />
      ) : null}
    </>
  );
}
