import { DateRangeFilter } from '#web/components/date-range-filter.tsx';
import { FilterSelect } from '#web/components/filter-select.tsx';
import { FiltersFold } from '#web/components/filters-fold.tsx';
import { facetOptions } from '#web/lib/facet-options.ts';
import { useUrlFilters } from '#web/lib/use-url-filters.ts';
import { useTreatmentFacets } from '../api/get-treatment-facets.ts';

const names = ['from', 'to', 'treatmentPlan', 'treatmentDevice'] as const;
const day = /^\d{4}-\d{2}-\d{2}$/;
/** A URL day the API takes (YYYY-MM-DD); anything else is left out of the request. */
const dayOf = (value: string | undefined) => (value && day.test(value) ? value : undefined);

/** Treatment Records' filters in the URL: the day range (the dashboard links here) and the facets. */
export function useTreatmentFilters() {
  const filters = useUrlFilters(names);
  const { from, to, treatmentPlan, treatmentDevice } = filters.values;
  return { ...filters, query: { from: dayOf(from), to: dayOf(to), treatmentPlan, treatmentDevice } };
}
export type TreatmentFilters = ReturnType<typeof useTreatmentFilters>;

/**
 * The day range, the plan and the treatment device, each plan and device with how many records
 * have it under the other filters and the search (issue 35 item 7); on a phone, behind Filters.
 */
export function TreatmentFilterControls({ filters, search }: { filters: TreatmentFilters; search?: string }) {
  const { query, set } = filters;
  const facets = useTreatmentFacets({ ...query, search });
  return (
    <FiltersFold active={Object.keys(filters.values).length}>
      <div className="d-flex flex-wrap align-items-center gap-3" role="group" aria-label="Filters">
        <DateRangeFilter
          from={filters.values.from ?? ''}
          to={filters.values.to ?? ''}
          onChange={(range) => set(range)}
        />
        <FilterSelect
          label="Plan"
          allLabel="All plans"
          value={query.treatmentPlan ?? ''}
          options={facetOptions(facets.data?.treatmentPlans, query.treatmentPlan)}
          onChange={(treatmentPlan) => set({ treatmentPlan })}
        />
        <FilterSelect
          label="Treatment device"
          allLabel="All treatment devices"
          value={query.treatmentDevice ?? ''}
          options={facetOptions(facets.data?.treatmentDevices, query.treatmentDevice)}
          onChange={(treatmentDevice) => set({ treatmentDevice })}
        />
        {filters.active ? (
          <button type="button" className="btn btn-sm btn-link" onClick={filters.clear}>
            Clear filters
          </button>
        ) : null}
      </div>
    </FiltersFold>
  );
}
