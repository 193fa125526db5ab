import { sql, type SQL } from 'drizzle-orm';
import type { SettingValues } from '@app/contract/machine-settings';
import type { Db } from '#api/db/client.ts';
import { devices } from '#api/db/schema/devices.ts';

/*
 * The one way machines' settings change (decision 079), for the settings' own routes and for the
 * groups module (a machine added to a group, a group deleted): the version of every machine that may
 * have changed grows, and each is announced on 'settings_changed' so every instance forgets it.
 */

/** The channel that names machines whose settings changed ('*': many, read them all again). */
export const settingsChangedChannel = 'settings_changed';
/** Above this many machines one '*' notice stands for all, as command batches do (decision 077). */
const noticeLimit = 100;

/** Raises the version of the machines `where` names (writing `set` on them too), and announces them. */
export async function bumpSettings(
  tx: Db,
  at: Date,
  where: SQL | undefined,
  set: Record<string, unknown> = {},
) {
  const changed = await tx
    .update(devices)
    .set({ ...set, settingsVersion: sql`${devices.settingsVersion} + 1`, settingsChangedAt: at })
    .where(where)
    .returning({ id: devices.id });
  const notices = changed.length > noticeLimit ? ['*'] : changed.map((r) => r.id);
  for (const notice of notices) await tx.execute(sql`select pg_notify(${settingsChangedChannel}, ${notice})`);
  return changed.length;
}

/** A group's values as devices.settings_from_groups holds them: each with the group it came from. */
export const stampedBy = (groupId: string, values: SettingValues) =>
  JSON.stringify(Object.fromEntries(Object.entries(values).map(([key, value]) => [key, { value, groupId }])));

/**
 * A machine's settings_from_groups without what `groupId` set: the `keys` named, or all of them.
 * What another group set stays.
 */
export const withoutGroup = (groupId: string, keys?: string[]) => sql`coalesce((
    select jsonb_object_agg(e.key, e.value) from jsonb_each(${devices.settingsFromGroups}) e
    where not (e.value->>'groupId' = ${groupId}
      ${keys ? sql`and e.key = any(${`{${keys.join(',')}}`}::text[])` : sql``})), '{}'::jsonb)`;

/** The machine has an entry from `groupId` in settings_from_groups. */
export const hasFromGroup = (groupId: string) =>
  sql`exists (select 1 from jsonb_each(${devices.settingsFromGroups}) e where e.value->>'groupId' = ${groupId})`;
