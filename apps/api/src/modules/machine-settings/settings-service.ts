import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { deviceMessages } from '@app/contract/devices';
import {
  catalogueDefaults,
  effectiveSettings,
  settingKeys,
  settingsMessages,
  type MachineSettings,
  type MachineSettingsView,
  type SettingKey,
  type SettingsChangeBody,
  type SettingsFromGroups,
  type SettingValues,
} from '@app/contract/machine-settings';
import type { Db } from '#api/db/client.ts';
import { devices } from '#api/db/schema/devices.ts';
import { fleetSettings, machineGroups } from '#api/db/schema/groups.ts';
import { BadRequestError, NotFoundError } from '#api/lib/errors.ts';
import { recordActor, type HistoryActor } from '#api/lib/record-history.ts';
import type { GroupsService } from '../groups/groups-service.ts';
import { bumpSettings, stampedBy, withoutGroup } from './settings-writes.ts';

/**
 * What a change sets and what it removes, from `{ key: value | null }`. An offline licence validity
 * above the server's LICENCE_OFFLINE_DAYS is refused: retired signing keys are published only that
 * long, so a licence valid longer could outlive its key.
 */
function splitChange(body: SettingsChangeBody, maxOfflineDays: number) {
  if (body.licenceOfflineDays != null && body.licenceOfflineDays > maxOfflineDays) {
    const message = settingsMessages.licenceOfflineDaysAbove(maxOfflineDays);
    throw new BadRequestError(message, { errors: [{ path: 'licenceOfflineDays', message }] });
  }
  const set: SettingValues = {};
  const removed: SettingKey[] = [];
  for (const key of settingKeys) {
    const value = body[key];
    if (value === null) removed.push(key);
    else if (value !== undefined) Object.assign(set, { [key]: value });
  }
  return { set, removed, keys: [...Object.keys(set), ...removed] as SettingKey[] };
}

/**
 * Settings of the machines' app at three levels (issue 37 item 3, decision 079). A group's values are
 * written on its machines when set (as maintenance windows are), so a machine's effective settings
 * are its row and the fleet's few rows: no group filter runs when a machine asks. Each change raises
 * the version of the machines whose effective value may have changed, and announces them.
 */
export function createMachineSettings({
  db,
  now,
  groups,
  heartbeatSeconds,
  licenceOfflineDays,
}: {
  db: Db;
  now: () => Date;
  groups: GroupsService;
  /** DEVICE_HEARTBEAT_SECONDS: the default interval until an admin sets one. */
  heartbeatSeconds: number;
  /** LICENCE_OFFLINE_DAYS: the default offline validity of a licence, and the most it may be. */
  licenceOfflineDays: number;
}) {
  const defaults: MachineSettings = { ...catalogueDefaults, heartbeatSeconds, licenceOfflineDays };
  const split = (body: SettingsChangeBody) => splitChange(body, licenceOfflineDays);
  /** As the licence is signed: a value kept from a higher LICENCE_OFFLINE_DAYS counts as the maximum. */
  const effectiveOf = (fleet: SettingValues, fromGroups: SettingsFromGroups, own: SettingValues) => {
    const result = effectiveSettings(defaults, fleet, fromGroups, own);
    result.effective.licenceOfflineDays = Math.min(result.effective.licenceOfflineDays, licenceOfflineDays);
    return result;
  };

  async function fleetValues(): Promise<SettingValues> {
    const rows = await db.select({ key: fleetSettings.key, value: fleetSettings.value }).from(fleetSettings);
    return Object.fromEntries(rows.map((r) => [r.key, r.value])) as SettingValues;
  }

  const bump = (tx: Db, where: SQL | undefined, set?: Record<string, unknown>) =>
    bumpSettings(tx, now(), where, set);

  /** Some of `keys` is not set on the machine itself (so a fleet's or group's change may reach it). */
  const notOwn = (keys: SettingKey[]) =>
    sql`exists (select 1 from unnest(${`{${keys.join(',')}}`}::text[]) k where not ${devices.settingsOwn} ? k)`;

  return {
    defaults,
    fleetValues,

    async ofMachine(deviceId: string): Promise<MachineSettingsView> {
      const [row] = await db
        .select({
          own: devices.settingsOwn,
          fromGroups: devices.settingsFromGroups,
          version: devices.settingsVersion,
          changedAt: devices.settingsChangedAt,
          appliedVersion: devices.settingsAppliedVersion,
          appliedAt: devices.settingsAppliedAt,
        })
        .from(devices)
        .where(eq(devices.id, deviceId))
        .limit(1);
      if (!row) throw new NotFoundError(deviceMessages.notFound);
      const { effective, sources } = effectiveOf(await fleetValues(), row.fromGroups, row.own);
      const groupIds = [...new Set(Object.values(sources).flatMap((s) => (s.groupId ? [s.groupId] : [])))];
      const names = groupIds.length
        ? await db
            .select({ id: machineGroups.id, name: machineGroups.name })
            .from(machineGroups)
            .where(inArray(machineGroups.id, groupIds))
        : [];
      const drifting = row.version > (row.appliedVersion ?? 0);
      return {
        effective,
        sources: Object.fromEntries(
          Object.entries(sources).map(([key, s]) => {
            const name = names.find((n) => n.id === s.groupId)?.name;
            return [key, { source: s.source, group: name ? { _id: s.groupId!, name } : null }];
          }),
        ),
        own: row.own,
        version: row.version,
        appliedVersion: row.appliedVersion,
        appliedAt: row.appliedAt?.toISOString() ?? null,
        driftSince: drifting ? (row.changedAt ?? row.appliedAt ?? now()).toISOString() : null,
      };
    },

    /** The machine's own values: set or removed; its version grows when its effective settings change. */
    async changeMachine(
      deviceId: string,
      body: SettingsChangeBody,
      actor: HistoryActor,
    ): Promise<MachineSettingsView> {
      const { set, removed } = split(body);
      const [row] = await db
        .select({ own: devices.settingsOwn, fromGroups: devices.settingsFromGroups })
        .from(devices)
        .where(eq(devices.id, deviceId))
        .limit(1);
      if (!row) throw new NotFoundError(deviceMessages.notFound);
      const own = { ...row.own, ...set } as Record<string, unknown>;
      for (const key of removed) delete own[key];
      const fleet = await fleetValues();
      const before = effectiveOf(fleet, row.fromGroups, row.own).effective;
      const after = effectiveOf(fleet, row.fromGroups, own).effective;
      const differs = settingKeys.some((k) => after[k] !== before[k]);
      await db.transaction(async (tx) => {
        // The machine's history keeps each key's old and new value (decision 081).
        await recordActor(tx as unknown as Db, actor);
        if (differs) await bump(tx, eq(devices.id, deviceId), { settingsOwn: own });
        else await tx.update(devices).set({ settingsOwn: own }).where(eq(devices.id, deviceId));
      });
      return this.ofMachine(deviceId);
    },

    /** The fleet's defaults: set or removed; machines that set none of the keys themselves change. */
    async changeFleet(body: SettingsChangeBody, auth: HistoryActor) {
      const { set, removed, keys } = split(body);
      const at = now();
      const machinesChanged = await db.transaction(async (tx) => {
        await recordActor(tx as unknown as Db, auth);
        for (const [key, value] of Object.entries(set))
          await tx
            .insert(fleetSettings)
            .values({ key, value, updatedAt: at, updatedBy: auth.email })
            .onConflictDoUpdate({
              target: fleetSettings.key,
              set: { value, updatedAt: at, updatedBy: auth.email },
            });
        if (removed.length) await tx.delete(fleetSettings).where(inArray(fleetSettings.key, removed));
        const arr = `{${keys.join(',')}}`;
        return bump(
          tx,
          sql`exists (select 1 from unnest(${arr}::text[]) k
                where not ${devices.settingsOwn} ? k and not ${devices.settingsFromGroups} ? k)`,
        );
      });
      return { values: await fleetValues(), machinesChanged };
    },

    /** A group's values, written on its machines now (the machines' own values still win). */
    async changeGroup(groupId: string, body: SettingsChangeBody, actor: HistoryActor) {
      const group = await groups.rowOf(groupId);
      const { set, removed, keys } = split(body);
      const values = { ...group.settings, ...set } as Record<string, unknown>;
      for (const key of removed) delete values[key];
      const machines = groups.machineIdsOf(group);
      const machinesChanged = await db.transaction(async (tx) => {
        await recordActor(tx as unknown as Db, actor);
        await tx.update(machineGroups).set({ settings: values }).where(eq(machineGroups.id, groupId));
        // Removed keys go only where this group set them; set keys are this group's from now on.
        const kept = sql`${withoutGroup(groupId, removed)} || ${stampedBy(groupId, set)}::jsonb`;
        await tx.update(devices).set({ settingsFromGroups: kept }).where(inArray(devices.id, machines));
        // A dynamic group's machines now: the sync takes the values off those that stop matching.
        await groups.recordMatches(tx, group, now());
        return bump(tx, and(inArray(devices.id, machines), notOwn(keys)));
      });
      return { values: values as SettingValues, machinesChanged };
    },

    /** The machine's effective settings and their version, as the app receives them. */
    async forApp(deviceId: string) {
      const [row] = await db
        .select({
          own: devices.settingsOwn,
          fromGroups: devices.settingsFromGroups,
          version: devices.settingsVersion,
        })
        .from(devices)
        .where(eq(devices.id, deviceId))
        .limit(1);
      if (!row) throw new NotFoundError(deviceMessages.notFound);
      const { effective } = effectiveOf(await fleetValues(), row.fromGroups, row.own);
      return { version: row.version, settings: effective };
    },

    /** The version the app applied; never one it cannot have received. */
    async applied(deviceId: string, version: number) {
      const [row] = await db
        .update(devices)
        .set({ settingsAppliedVersion: version, settingsAppliedAt: now() })
        .where(sql`${devices.id} = ${deviceId} and ${devices.settingsVersion} >= ${version}`)
        .returning({ version: devices.settingsVersion });
      if (!row) throw new BadRequestError(settingsMessages.appliedTooNew);
      return { version: row.version, appliedVersion: version };
    },
  };
}
export type MachineSettingsService = ReturnType<typeof createMachineSettings>;
