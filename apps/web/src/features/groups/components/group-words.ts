import { onlineFilterLabels, type OnlineFilter } from '@app/contract/devices';
import type { GroupKind } from '@app/contract/groups';
import { licenceStateLabels, type LicenceState } from '@app/contract/licences';
import type { MaintenanceWindow } from '@app/contract/maintenance-windows';

/*
 * A group in words for the list (issue 37 item 1). The contract names the kinds and the filter's keys
 * but gives them no labels; these are the list's until it does.
 */

export const groupKindLabels: Record<GroupKind, string> = { static: 'Static', dynamic: 'Dynamic' };

/** Device Management's filter keys as its facets name them, in the order they are told. */
const filterLabels: Record<string, string> = {
  country: 'Country',
  city: 'City',
  online: 'Online',
  licence: 'Licence',
  licenceEndsWithin: 'Licence ends within (days)',
  status: 'Status',
  subscriptionStatus: 'Subscription',
  appVersion: 'App version',
  settings: 'Settings',
  commands: 'Commands',
  search: 'Search',
};
const filterOrder = Object.keys(filterLabels);
/** Known keys in their order, then any other (shown as it is). */
const rank = (key: string) => (filterOrder.includes(key) ? filterOrder.indexOf(key) : filterOrder.length);

const valueInWords = (key: string, value: unknown): string => {
  if (key === 'online') return onlineFilterLabels[value as OnlineFilter] ?? String(value);
  if (key === 'licence') return licenceStateLabels[value as LicenceState] ?? String(value);
  return typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value);
};

/** "Country: Germany, Online: Offline"; "None" for a static group (or a filter that names nothing). */
export function filterInWords(filter: Record<string, unknown> | null): string {
  const pairs = Object.entries(filter ?? {})
    .filter(([, value]) => value !== undefined && value !== '')
    .sort(([a], [b]) => rank(a) - rank(b));
  if (pairs.length === 0) return filter ? 'Every machine' : 'None';
  return pairs.map(([key, value]) => `${filterLabels[key] ?? key}: ${valueInWords(key, value)}`).join(', ');
}

/** "02:00–04:00 Europe/Berlin" (an end before the start runs past midnight), or "None". */
export const windowInWords = (window: MaintenanceWindow | null): string =>
  window ? `${window.start}–${window.end} ${window.timeZone}` : 'None';
