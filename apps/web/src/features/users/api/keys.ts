import { createQueryKeys } from '#web/lib/query-keys.ts';

/** Users keys (docs/architecture.md §6, key factories). */
export const userKeys = createQueryKeys('users');

/**
 * The role dropdown reads the roles list: under the 'roles' keys, so a change made on the Roles
 * page (which invalidates roles lists) refreshes it too.
 */
export const roleOptionKeys = createQueryKeys('roles');

/** The machines a technician (a user of an app role) is assigned to, under the user's id. */
export const userMachineKeys = createQueryKeys('user-machines');

/**
 * The machine picker searches the device list: under the 'devices' keys, so a device added or
 * changed on Device Management refreshes it too.
 */
export const machineOptionKeys = createQueryKeys('devices');
