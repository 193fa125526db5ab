import { treatmentMessages } from '@app/contract/treatments';
import { PageHeader } from '#web/components/page-header.tsx';
import { TreatmentFilterControls, useTreatmentFilters } from '../components/treatment-filters.tsx';
import { TreatmentsTable } from '../components/treatments-table.tsx';

/** What the URL's days say, in words: the dashboard links here with both set. */
function rangeText(from?: string, to?: string) {
  if (from && to) return from === to ? `Started on ${from} (UTC)` : `Started from ${from} to ${to} (UTC)`;
  if (from) return `Started on or after ${from} (UTC)`;
  if (to) return `Started on or before ${to} (UTC)`;
  return 'All treatment records';
}

/**
 * /admin/treatments (ours, decision 050): every machine's treatment records, the latest started first,
 * between the URL's `from` and `to` (UTC days of the start, both included), of one plan and one
 * treatment device when chosen (issue 35), searchable and exportable; the dashboard's Today and Last
 * 30 days link here.
 */
export function TreatmentsPage() {
  const filters = useTreatmentFilters();
  const { from, to, treatmentPlan, treatmentDevice } = filters.query;
  return (
    <>
      <PageHeader title="Treatment Records" />
      <p>{rangeText(from, to)}</p>
      <TreatmentsTable
        from={from}
        to={to}
        treatmentPlan={treatmentPlan}
        treatmentDevice={treatmentDevice}
        filters={(search) => <TreatmentFilterControls filters={filters} search={search} />}
        emptyText={treatmentMessages.empty}
        label="Treatment records"
        searchable
        inUrl
      />
    </>
  );
}
