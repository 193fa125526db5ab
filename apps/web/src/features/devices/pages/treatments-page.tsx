import { useSearchParams } from 'react-router';
import { treatmentMessages } from '@app/contract/treatments';
import { PageHeader } from '#web/components/page-header.tsx';
import { TreatmentsTable } from '../components/treatments-table.tsx';

const day = /^\d{4}-\d{2}-\d{2}$/;
const dayParam = (value: string | null) => (value && day.test(value) ? value : undefined);

/** What the URL's days say, in words: the dashboard links here with both set. */
function rangeText(from?: string, to?: string) {
  if (from && to) return from === to ? `Recorded on ${from} (UTC)` : `Recorded from ${from} to ${to} (UTC)`;
  if (from) return `Recorded on or after ${from} (UTC)`;
  if (to) return `Recorded on or before ${to} (UTC)`;
  return 'All treatment records';
}

/**
 * /admin/treatments (ours, decision 050): every machine's treatment records, newest first, between
 * the URL's `from` and `to` (UTC days, both included), searchable; the dashboard's Today and Last 30
 * days link here.
 */
export function TreatmentsPage() {
  const [params] = useSearchParams();
  const from = dayParam(params.get('from'));
  const to = dayParam(params.get('to'));
  return (
    <>
      <PageHeader title="Treatment Records" />
      <p>{rangeText(from, to)}</p>
      <TreatmentsTable
        // A new range starts again at page 1.
        key={`${from}|${to}`}
        from={from}
        to={to}
        emptyText={treatmentMessages.empty}
        label="Treatment records"
        searchable
        inUrl
      />
    </>
  );
}
