import { formatCount } from '@app/contract/count-format';
import { noneFilter, type DeviceFilterQuery, type FacetValue } from '@app/contract/device-filters';
import {
  deviceStatuses,
  deviceStatusLabels,
  onlineFilterLabels,
  onlineFilters,
  subscriptionStatusLabels,
} from '@app/contract/devices';
import { FilterSelect } from '#web/components/filter-select.tsx';
import { useUrlFilters } from '#web/lib/use-url-filters.ts';
import { useDeviceFacets } from '../api/get-device-facets.ts';

const facetNames = ['online', 'status', 'subscriptionStatus', 'country', 'city', 'appVersion'] as const;
export type DeviceFacetFilters = Omit<DeviceFilterQuery, 'search'>;

/** Device Management's filters, read from and kept in the URL (issue 17 item 2). */
export function useDeviceFacetFilters() {
  const filters = useUrlFilters(facetNames);
  return { ...filters, values: filters.values as DeviceFacetFilters };
}

const onlineOptions = onlineFilters.map((value) => ({ value, label: onlineFilterLabels[value] }));
const statusOptions = deviceStatuses.map((s) => ({ value: String(s), label: deviceStatusLabels[s] }));
const subscriptionOptions = [
  ...Object.entries(subscriptionStatusLabels).map(([value, label]) => ({ value, label })),
  { value: noneFilter, label: 'No subscription' },
];
/** A facet's values as options, each with its count; one set in the URL but not offered still shows. */
const facetOptions = (values: FacetValue[] | undefined, current: string | undefined) => {
  const options = (values ?? []).map((v) => ({
    value: v.value,
    label: `${v.label} (${formatCount(v.count)})`,
  }));
  if (current && !options.some((o) => o.value === current))
    options.unshift({ value: current, label: current });
  return options;
};

/**
 * The selects for online state, status, subscription status, country, city and app version. The
 * places and versions come with how many machines have each; a new country clears the city.
 */
export function DeviceFacetSelects({ filters }: { filters: ReturnType<typeof useDeviceFacetFilters> }) {
  const { values, set } = filters;
  const facets = useDeviceFacets(values.country);
  return (
    <div className="d-flex flex-wrap align-items-center gap-2" role="group" aria-label="Filters">
      <FilterSelect
        label="Online"
        allLabel="All machines"
        value={values.online ?? ''}
        options={onlineOptions}
        onChange={(online) => set({ online })}
      />
      <FilterSelect
        label="Status"
        allLabel="Any status"
        value={values.status ?? ''}
        options={statusOptions}
        onChange={(status) => set({ status })}
      />
      <FilterSelect
        label="Subscription"
        allLabel="Any subscription"
        value={values.subscriptionStatus ?? ''}
        options={subscriptionOptions}
        onChange={(subscriptionStatus) => set({ subscriptionStatus })}
      />
      <FilterSelect
        label="Country"
        allLabel="All countries"
        value={values.country ?? ''}
        options={facetOptions(facets.data?.countries, values.country)}
        onChange={(country) => set({ country, city: '' })}
      />
      <FilterSelect
        label="City"
        allLabel="All cities"
        value={values.city ?? ''}
        options={facetOptions(facets.data?.cities, values.city)}
        onChange={(city) => set({ city })}
      />
      <FilterSelect
        label="App version"
        allLabel="All versions"
        value={values.appVersion ?? ''}
        options={facetOptions(facets.data?.appVersions, values.appVersion)}
        onChange={(appVersion) => set({ appVersion })}
      />
      {filters.active ? (
        <button type="button" className="btn btn-sm btn-link" onClick={filters.clear}>
          Clear filters
        </button>
      ) : null}
    </div>
  );
}
