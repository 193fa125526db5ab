import { and, gte, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { OnlineFilter } from '@app/contract/devices';
import { devices } from '#api/db/schema/devices.ts';
import { containsPattern } from '#api/lib/pagination.ts';

export type DeviceFilters = { search?: string; online?: OnlineFilter };

/**
 * The device list's filters as one condition (undefined: none), shared by the list and the fleet
 * map so both show the same machines. `onlineSince`: a machine seen at or after it is online (the
 * Online column's rule; the plain last_seen_at index serves these ranges, decision 050).
 */
export function deviceFilterWhere(filters: DeviceFilters, onlineSince: Date) {
  const search = filters.search?.toLowerCase();
  const searched = search ? sql`${devices.searchText} like ${containsPattern(search)}` : undefined;
  const byOnline =
    filters.online &&
    {
      online: gte(devices.lastSeenAt, onlineSince),
      offline: lt(devices.lastSeenAt, onlineSince),
      never: isNull(devices.lastSeenAt),
    }[filters.online];
  return { searched, where: and(searched, byOnline) as SQL | undefined };
}
