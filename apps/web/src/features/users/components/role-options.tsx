import { firstNotHeld } from '@app/contract/permissions';
import { roleTypeLabels, roleTypes, type Role } from '@app/contract/roles';

/** What a role option says when its permissions reach beyond the signed-in admin's (decision 063). */
export const beyondYouSuffix = ' (has permissions you do not hold)';

/**
 * The Role dropdown's options, grouped by type (Web roles sign in to the console, App roles work on
 * the machines). A role that carries a permission the admin lacks is shown but cannot be picked:
 * nobody grants what they do not hold, and the API refuses it anyway.
 */
export function RoleOptions({
  roles,
  held,
  only,
}: {
  roles: readonly Role[];
  held: readonly string[];
  /** When set, the one role that may be shown (an admin's own, which they cannot change). */
  only?: string;
}) {
  const shown = only ? roles.filter((r) => r._id === only) : roles;
  return roleTypes
    .slice()
    .reverse()
    .map((type) => {
      const ofType = shown.filter((r) => r.type === type);
      if (!ofType.length) return null;
      return (
        <optgroup key={type} label={`${roleTypeLabels[type]} roles`}>
          {ofType.map((role) => {
            const beyond = !only && firstNotHeld(held, role.permissions) !== null;
            return (
              <option key={role._id} value={role._id} disabled={beyond}>
                {role.roleName}
                {beyond ? beyondYouSuffix : ''}
              </option>
            );
          })}
        </optgroup>
      );
    });
}
