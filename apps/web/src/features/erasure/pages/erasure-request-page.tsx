import { useState } from 'react';
import { useParams } from 'react-router';
import { erasureMessages } from '@app/contract/erasure';
import { erasureChannelLabels, erasureDecisionLabels, erasureTexts } from '@app/contract/erasure-texts';
import { BackButton } from '#web/components/back-button.tsx';
import { DetailsCard, SectionCard } from '#web/components/details-card.tsx';
import { Link } from '#web/components/link.tsx';
import { LoadError } from '#web/components/load-error.tsx';
import { PageHeader } from '#web/components/page-header.tsx';
import { SignatureLines } from '#web/components/signature-line.tsx';
import { formatDate, formatDateTime } from '#web/lib/format.ts';
import { paths } from '#web/lib/paths.ts';
import { useErasureRequest } from '../api/get-erasure-request.ts';
import { DecideModal } from '../components/decide-modal.tsx';
import { ErasureOutcome } from '../components/erasure-outcome.tsx';
import { ErasureStateBadge } from '../components/erasure-columns.tsx';
import { erasureRoute } from '../erasure-routes.ts';

const decisionOf = {
  open: 'erase',
  erased: 'erase',
  'erased-in-part': 'erase-in-part',
  refused: 'refuse',
} as const;

/**
 * /admin/erasure-requests/:id (decision 085): one request, decided here once, signed; then what was
 * erased, what was kept and why, and the signature.
 */
export function ErasureRequestPage() {
  const { id = '' } = useParams();
  const query = useErasureRequest(id);
  const [deciding, setDeciding] = useState(false);
  const request = query.data;
  if (query.isError && !request)
    return (
      <>
        <PageHeader title={erasureTexts.requestTitle} />
        <LoadError
          error={query.error}
          fallback={erasureMessages.notFound}
          onRetry={() => void query.refetch()}
        />
      </>
    );
  const decide =
    request?.state === 'open' ? (
      <button type="button" className="btn btn-sm btn-danger" onClick={() => setDeciding(true)}>
        {erasureTexts.decide}
      </button>
    ) : null;
  return (
    <>
      <BackButton to={erasureRoute.href()} />
      <PageHeader title={erasureTexts.requestTitle} />
      <DetailsCard
        title="Request"
        isLoading={query.isPending}
        actions={decide}
        items={
          request
            ? [
                {
                  label: 'Patient',
                  value: request.patientId ? (
                    <Link to={paths.viewPatient.href({ id: request.patientId })}>{request.patientLabel}</Link>
                  ) : (
                    request.patientLabel
                  ),
                },
                { label: 'Patient Name Now', value: request.patientName },
                { label: 'State', value: <ErasureStateBadge state={request.state} /> },
                { label: 'Received', value: formatDate(request.receivedOn, undefined, 'UTC') },
                { label: 'How', value: erasureChannelLabels[request.channel] },
                { label: 'Note', value: request.note },
                {
                  label: 'Recorded',
                  value: `${formatDateTime(request.requestedAt)} by ${request.requestedByName}`,
                },
              ]
            : []
        }
      />
      {request && request.state !== 'open' ? (
        <SectionCard title="Decision">
          <p>
            {erasureDecisionLabels[decisionOf[request.state]]} · {formatDateTime(request.decidedAt)} by{' '}
            {request.decidedByName} ({request.decidedByEmail})
          </p>
          <SignatureLines signatures={request.signatures} />
        </SectionCard>
      ) : null}
      {request ? <ErasureOutcome request={request} /> : null}
      <DecideModal request={deciding ? (request ?? null) : null} onClose={() => setDeciding(false)} />
    </>
  );
}
