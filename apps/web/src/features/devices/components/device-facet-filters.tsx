import {
  appVersionFilterLabel,
  failedCommandDays,
  noneFilter,
  settingsFilterLabels,
  settingsFilters,
  parseAppVersionFilter,
  type DeviceFilterQuery,
} from '@app/contract/device-filters';
import { noCustomerFilter, noCustomerLabel } from '@app/contract/customers-texts';
import {
  deviceStatuses,
  deviceStatusLabels,
  onlineFilterLabels,
  onlineFilters,
  subscriptionStatusLabels,
} from '@app/contract/devices';
import { licenceLapsingDays } from '@app/contract/dashboard';
import { licenceStateLabels, licenceStates } from '@app/contract/licences';
import { FilterSelect } from '#web/components/filter-select.tsx';
import { facetOptions, withCurrent } from '#web/lib/facet-options.ts';
import { useUrlFilters } from '#web/lib/use-url-filters.ts';
import { useDeviceFacets } from '../api/get-device-facets.ts';

const facetNames = [
  'online',
  'status',
  'subscriptionStatus',
  'licence',
  'licenceEndsWithin',
  'settings',
  'commands',
  'country',
  'city',
  'appVersion',
  'customer',
] as const;
export type DeviceFacetFilters = Omit<DeviceFilterQuery, 'search'>;

/** Device Management's filters, read from and kept in the URL (issue 17 item 2). */
export function useDeviceFacetFilters() {
  const filters = useUrlFilters(facetNames);
  const { licenceEndsWithin, ...values } = filters.values;
  return {
    ...filters,
    values: {
      ...values,
      ...(licenceEndsWithin ? { licenceEndsWithin: Number(licenceEndsWithin) } : {}),
    } as DeviceFacetFilters,
  };
}

const onlineOptions = onlineFilters.map((value) => ({ value, label: onlineFilterLabels[value] }));
const statusOptions = deviceStatuses.map((s) => ({ value: String(s), label: deviceStatusLabels[s] }));
const subscriptionOptions = [
  ...Object.entries(subscriptionStatusLabels).map(([value, label]) => ({ value, label })),
  { value: noneFilter, label: 'No subscription' },
];
/** An app version no machine is on now, or a bare code from an older link ("40, any app"). */
const appVersionLabel = (value: string) => {
  const filter = parseAppVersionFilter(value);
  return filter ? appVersionFilterLabel(filter) : value;
};
const licenceOptions = licenceStates.map((value) => ({ value, label: licenceStateLabels[value] }));
// The dashboard's "lapsing within 14 days" links here, and a month ahead is offered too.
const endsLabel = (days: string) => `Active, ending within ${days} days`;
const endsOptions = [String(licenceLapsingDays), '30'].map((days) => ({
  value: days,
  label: endsLabel(days),
}));

/** A customer in the URL no machine is with now (a link, a saved view): named by its id. */
const customerLabel = (value: string) => (value === noCustomerFilter ? noCustomerLabel : `Customer ${value}`);

const settingsOptions = settingsFilters.map((value) => ({ value, label: settingsFilterLabels[value] }));
const commandsOptions = [{ value: 'failed', label: `Failed in the last ${failedCommandDays} days` }];

/**
 * The selects for online state, status, subscription status, country, city and app version. The
 * places and versions come with how many machines have each; a new country clears the city.
 */
export function DeviceFacetSelects({ filters }: { filters: ReturnType<typeof useDeviceFacetFilters> }) {
  const { values, set } = filters;
  const facets = useDeviceFacets(values.country);
  const ends = values.licenceEndsWithin === undefined ? undefined : String(values.licenceEndsWithin);
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
        label="Licence"
        allLabel="Any licence"
        value={values.licence ?? ''}
        options={facets.data ? facetOptions(facets.data.licences, values.licence) : licenceOptions}
        onChange={(licence) => set({ licence })}
      />
      <FilterSelect
        label="Licence ends"
        allLabel="Any time"
        value={ends ?? ''}
        options={withCurrent(endsOptions, ends, endsLabel)}
        onChange={(licenceEndsWithin) => set({ licenceEndsWithin })}
      />
      <FilterSelect
        label="Settings"
        allLabel="Any settings"
        value={values.settings ?? ''}
        options={settingsOptions}
        onChange={(settings) => set({ settings })}
      />
      <FilterSelect
        label="Commands"
        allLabel="Any commands"
        value={values.commands ?? ''}
        options={commandsOptions}
        onChange={(commands) => set({ commands })}
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
        options={facetOptions(facets.data?.appVersions, values.appVersion, appVersionLabel)}
        onChange={(appVersion) => set({ appVersion })}
      />
      {/* Ours (issue 39): offered when the server counts machines per customer. */}
      {facets.data?.customers ? (
        <FilterSelect
          label="Customer"
          allLabel="Any customer"
          value={values.customer ?? ''}
          options={facetOptions(facets.data.customers, values.customer, customerLabel)}
          onChange={(customer) => set({ customer })}
        />
      ) : null}
      {filters.active ? (
        <button type="button" className="btn btn-sm btn-link" onClick={filters.clear}>
          Clear filters
        </button>
      ) : null}
    </div>
  );
}
