import type { ErasureRequest } from '@app/contract/erasure';
import { erasureLegalBasisLabels, erasurePartLabels, erasureTexts } from '@app/contract/erasure-texts';
import { SectionCard } from '#web/components/details-card.tsx';

/**
 * What a decision did, place by place, and what it kept and why: the record a regulator reads. Counts
 * only: the erased values are nowhere, here included.
 */
export function ErasureOutcome({ request }: { request: ErasureRequest }) {
  if (request.state === 'open') return null;
  return (
    <>
      <SectionCard title={erasureTexts.keptTitle}>
        {request.partsKept.length === 0 ? (
          <p className="mb-0">{erasureTexts.nothingKept}</p>
        ) : (
          <>
            <p>Kept: {request.partsKept.map((p) => erasurePartLabels[p]).join(', ')}.</p>
            <p className="mb-0">
              Legal basis: {request.legalBasis ? erasureLegalBasisLabels[request.legalBasis] : 'none given'}
              {request.basisNote ? ` (${request.basisNote})` : ''}
            </p>
          </>
        )}
      </SectionCard>
      {request.outcome.length ? (
        <SectionCard title={erasureTexts.outcomeTitle}>
          <table className="table table-sm mb-2">
            <caption className="visually-hidden">{erasureTexts.outcomeTitle}</caption>
            <thead>
              <tr>
                <th scope="col">Place</th>
                <th scope="col">What was done</th>
                <th scope="col" className="text-end">
                  Count
                </th>
              </tr>
            </thead>
            <tbody>
              {request.outcome.map((o) => (
                <tr key={`${o.place}:${o.done}`}>
                  <td>{o.place}</td>
                  <td>{o.done}</td>
                  <td className="text-end">{o.count}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="small text-body-secondary mb-0">{erasureTexts.logsNote}</p>
        </SectionCard>
      ) : null}
    </>
  );
}
