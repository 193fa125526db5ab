import { useId, useState, type FormEvent } from 'react';
import { firstNotHeld, permissionCatalogue, type Permission } from '@app/contract/permissions';
import { roleMessages, type Role } from '@app/contract/roles';
import { SectionCard } from '#web/components/section-card.tsx';
import { StatusBadge } from '#web/components/status-badge.tsx';
import { notifyError } from '#web/lib/api-client.ts';
import { notify } from '#web/lib/notify.ts';
import { useCan, useHeldPermissions, useSession } from '#web/lib/use-session.ts';
import { useSaveRole } from '../api/save-role.ts';

type Entry = (typeof permissionCatalogue)[number];

/** The catalogue under its groups, in catalogue order (a group's permissions are listed together). */
const groups = permissionCatalogue.reduce<{ group: string; entries: Entry[] }[]>((all, entry) => {
  const last = all.at(-1);
  if (last?.group === entry.group) last.entries.push(entry);
  else all.push({ group: entry.group, entries: [entry] });
  return all;
}, []);

const intro =
  'What an admin holding this role may do in the console, beyond their own profile, password and sign-in.';

/**
 * Role Details' Permissions card (decision 047): the catalogue by group, each permission with its
 * line, and which the role carries. An admin who manages roles ticks and saves them; an App role
 * carries none, as its users work on the machines and never sign in to the console.
 */
export function RolePermissionsCard({ role }: { role: Role }) {
  const mayManage = useCan('roles.manage');
  const held = useHeldPermissions();
  const ownRoleId = useSession((s) => s.details?.role?._id ?? null);
  // Nobody grants what they do not hold (decision 063): one's own role, and a role carrying more
  // than one holds, are shown read-only with the reason; elsewhere only held permissions can be ticked.
  const above = firstNotHeld(held, role.permissions);
  let body;
  if (role.type === 'app')
    body = (
      <p className="mb-0">
        An App role carries no permissions: its users work on the machines, not in the console.
      </p>
    );
  else if (!mayManage) body = <PermissionsList carried={role.permissions} />;
  else if (role._id === ownRoleId)
    body = (
      <PermissionsList
        carried={role.permissions}
        why="This is your own role: another admin who holds its permissions can change them."
      />
    );
  else if (above)
    body = (
      <PermissionsList
        carried={role.permissions}
        why={`This role carries the permission "${above}", which your role does not: only an admin who holds it can change this role.`}
      />
    );
  // Keyed on what is stored, so a save (or another admin's, once read) starts the form afresh.
  else body = <PermissionsForm key={role.permissions.join()} role={role} held={held} />;
  return <SectionCard title="Permissions">{body}</SectionCard>;
}

function PermissionsList({ carried, why }: { carried: readonly Permission[]; why?: string }) {
  return (
    <>
      <p>{intro}</p>
      {why ? <p className="alert alert-info py-2">{why}</p> : null}
      {groups.map(({ group, entries }) => (
        <div key={group} className="mb-3">
          <h3 className="h6">{group}</h3>
          <ul className="list-unstyled mb-0">
            {entries.map((entry) => (
              <li key={entry.name} className="mb-2">
                <span className="font-monospace me-2">{entry.name}</span>
                {carried.includes(entry.name) ? (
                  <StatusBadge label="Carried" tone="success" />
                ) : (
                  <StatusBadge label="Not carried" tone="secondary" />
                )}
                <div className="form-text mt-0">{entry.explanation}</div>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </>
  );
}

const notYoursToGrant = 'Your role does not carry this permission, so you cannot grant it.';

function PermissionsForm({ role, held }: { role: Role; held: readonly string[] }) {
  const save = useSaveRole();
  const id = useId();
  const [chosen, setChosen] = useState<readonly Permission[]>(role.permissions);
  const changed =
    chosen.length !== role.permissions.length || chosen.some((p) => !role.permissions.includes(p));

  const toggle = (name: Permission, on: boolean) =>
    setChosen((current) => (on ? [...current, name] : current.filter((p) => p !== name)));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const response = await save.mutateAsync({
        id: role._id,
        body: { roleName: role.roleName, type: role.type, permissions: [...chosen] },
      });
      notify.success(response.msg || roleMessages.updated);
    } catch (error) {
      notifyError(error);
    }
  };

  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <p>{intro}</p>
      {groups.map(({ group, entries }) => (
        <fieldset key={group} className="mb-3">
          <legend className="h6">{group}</legend>
          {entries.map((entry) => {
            const input = `${id}-${entry.name}`;
            const grantable = held.includes(entry.name);
            return (
              <div key={entry.name} className="form-check mb-2">
                <input
                  id={input}
                  type="checkbox"
                  className="form-check-input"
                  checked={chosen.includes(entry.name)}
                  disabled={!grantable}
                  onChange={(event) => toggle(entry.name, event.target.checked)}
                  aria-describedby={`${input}-line`}
                />
                <label htmlFor={input} className="form-check-label font-monospace">
                  {entry.name}
                </label>
                <div id={`${input}-line`} className="form-text mt-0">
                  {entry.explanation}
                  {grantable ? null : ` ${notYoursToGrant}`}
                </div>
              </div>
            );
          })}
        </fieldset>
      ))}
      <button type="submit" className="btn btn-primary" disabled={!changed || save.isPending}>
        {save.isPending ? 'Saving...' : 'Save permissions'}
      </button>
    </form>
  );
}
