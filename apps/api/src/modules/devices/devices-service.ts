import { eq, sql } from 'drizzle-orm';
import {
  deviceMessages,
  type Device,
  type DeviceCreateBody,
  type DeviceUpdateBody,
} from '@app/contract/devices';
import type { DeviceExportQuery } from '@app/contract/device-export';
import type { Db } from '#api/db/client.ts';
import { devices } from '#api/db/schema/devices.ts';
import { BadRequestError, ConflictError, NotFoundError } from '#api/lib/errors.ts';
import { isUniqueViolation } from '#api/lib/pagination.ts';
import { withActor, type HistoryActor } from '#api/lib/record-history.ts';
import { deviceExportCsv } from './device-export.ts';
import { createDeviceFacets } from './device-facets.ts';
import { createDeviceBulkStatus } from './device-bulk-status.ts';
import { createDeviceList } from './device-list.ts';
import { createDeviceMap } from './device-map.ts';
import { createFleetOverview } from './fleet-overview.ts';
import { deviceColumns, toDevice, type DeviceListRow } from './device-rows.ts';
import { createDeviceStatusWriter } from './device-status.ts';
import { subscriptionsBySerial } from './device-subscriptions.ts';

export function createDevicesService({
  db,
  now = () => new Date(),
  offlineMinutes = 15,
}: {
  db: Db;
  now?: () => Date;
  /** Quiet longer than this reads Offline (DEVICE_OFFLINE_MINUTES). */
  offlineMinutes?: number;
}) {
  async function withSubscriptions(rows: DeviceListRow[]): Promise<Device[]> {
    const subs = await subscriptionsBySerial(
      db,
      rows.map((r) => r.serialNumber),
      now(),
    );
    const onlineSince = now().getTime() - offlineMinutes * 60_000;
    return rows.map((r) => toDevice(r, subs.get(r.serialNumber.toLowerCase()) ?? [], onlineSince));
  }

  const deviceById = db
    .select(deviceColumns)
    .from(devices)
    .where(eq(devices.id, sql.placeholder('id')))
    .limit(1)
    .prepare('device_by_id');
  async function findRow(id: string): Promise<DeviceListRow> {
    const [row] = await deviceById.execute({ id });
    if (!row) throw new NotFoundError(deviceMessages.notFound);
    return row;
  }

  /** Refuses a machine or serial number another device has (case-insensitively), naming which. */
  async function assertUnique(machineNumber: string, serialNumber: string) {
    const clashes = await db
      .select({ machineNumber: devices.machineNumber, serialNumber: devices.serialNumber })
      .from(devices)
      .where(
        sql`lower(${devices.machineNumber}) = lower(${machineNumber}) or lower(${devices.serialNumber}) = lower(${serialNumber})`,
      );
    const messages: string[] = [];
    if (clashes.some((c) => c.machineNumber.toLowerCase() === machineNumber.toLowerCase()))
      messages.push(deviceMessages.machineNumberTaken);
    if (clashes.some((c) => c.serialNumber.toLowerCase() === serialNumber.toLowerCase()))
      messages.push(deviceMessages.serialNumberTaken);
    if (messages.length) throw new ConflictError(messages.join('; '));
  }

  const list = createDeviceList({ db, now, offlineMinutes, withSubscriptions });
  const overview = createFleetOverview({ db, now, offlineMinutes });
  const facets = createDeviceFacets({ db, now });
  const setStatus = createDeviceStatusWriter({ db, now });

  return {
    list,
    facets: facets.facets,
    exportCsv: (query: DeviceExportQuery, counted: (rows: number) => void) =>
      deviceExportCsv(db, query, { now: now(), offlineMinutes, counted }),
    bulkStatus: createDeviceBulkStatus({ db, now, offlineMinutes, setStatus }),
    map: createDeviceMap({ db, now, offlineMinutes, overview }),

    async get(id: string): Promise<Device> {
      const [device] = await withSubscriptions([await findRow(id)]);
      return device!;
    },

    async create(body: DeviceCreateBody, actor: HistoryActor | null): Promise<Device> {
      await assertUnique(body.machineNumber, body.serialNumber);
      try {
        const [row] = await withActor(db, actor, (tx) =>
          tx
            .insert(devices)
            .values({ ...body, status: body.status ?? 2, createdAt: now(), updatedAt: now() })
            .returning(deviceColumns),
        );
        overview.invalidate();
        facets.invalidate();
        return (await withSubscriptions([row!]))[0]!;
      } catch (error) {
        // Two adds of the same number at once: the unique index decides.
        if (isUniqueViolation(error)) await assertUnique(body.machineNumber, body.serialNumber);
        throw error;
      }
    },

    /**
     * The whole form (machine and serial number unchanged) or the status alone. `changed`: the
     * fields whose stored value differs, for the audit row (decision 048); the row was read anyway.
     * The values, old and new, are in the device's history, named with the admin (decision 081).
     */
    async update(
      id: string,
      body: DeviceUpdateBody,
      actor: HistoryActor | null,
    ): Promise<{ device: Device; statusOnly: boolean; changed: string[] }> {
      const current = await findRow(id);
      const statusOnly = body.machineNumber === undefined;
      const locked: string[] = [];
      if (!statusOnly && body.machineNumber !== current.machineNumber)
        locked.push(deviceMessages.machineNumberLocked);
      if (!statusOnly && body.serialNumber !== current.serialNumber)
        locked.push(deviceMessages.serialNumberLocked);
      if (locked.length) throw new BadRequestError(locked.join('; '));
      if (statusOnly) {
        // The list's select: the same writer as the bulk action.
        const [row] = await setStatus([id], body.status!, actor);
        if (!row) throw new NotFoundError(deviceMessages.notFound);
        const changed = current.status === row.status ? [] : ['status'];
        return { device: (await withSubscriptions([row]))[0]!, statusOnly, changed };
      }
      const changes = {
        location: body.location!,
        latitude: body.latitude!,
        longitude: body.longitude!,
        city: body.city!,
        country: body.country!,
        address: body.address!,
        ...(body.status !== undefined ? { status: body.status } : {}),
      };
      const [row] = await withActor(db, actor, (tx) =>
        tx
          .update(devices)
          .set({ ...changes, updatedAt: now() })
          .where(eq(devices.id, id))
          .returning(deviceColumns),
      );
      if (!row) throw new NotFoundError(deviceMessages.notFound);
      const changed = Object.entries(changes)
        .filter(([key, value]) => current[key as keyof typeof changes] !== value)
        .map(([key]) => key);
      if (changed.includes('latitude') || changed.includes('longitude')) overview.invalidate();
      if (changed.includes('country') || changed.includes('city')) facets.invalidate();
      return { device: (await withSubscriptions([row]))[0]!, statusOnly, changed };
    },
  };
}
export type DevicesService = ReturnType<typeof createDevicesService>;
