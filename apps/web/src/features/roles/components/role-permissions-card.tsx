import { useId, useState, type FormEvent } from 'react';
import { permissionCatalogue, type Permission } from '@app/contract/permissions';
import { roleMessages, type Role } from '@app/contract/roles';
import { SectionCard } from '#web/components/section-card.tsx';
import { StatusBadge } from '#web/components/status-badge.tsx';
import { notifyError } from '#web/lib/api-client.ts';
import { notify } from '#web/lib/notify.ts';
import { useCan } from '#web/lib/use-session.ts';
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
  let body;
  if (role.type === 'app')
    body = (
      <p className="mb-0">
        An App role carries no permissions: its users work on the machines, not in the console.
      </p>
    );
  else if (mayManage)
    // Keyed on what is stored, so a save (or another admin's, once read) starts the form afresh.
    body = <PermissionsForm key={role.permissions.join()} role={role} />;
  else body = <PermissionsList carried={role.permissions} />;
  return <SectionCard title="Permissions">{body}</SectionCard>;
}

function PermissionsList({ carried }: { carried: readonly Permission[] }) {
  return (
    <>
      <p>{intro}</p>
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

function PermissionsForm({ role }: { role: Role }) {
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
            return (
              <div key={entry.name} className="form-check mb-2">
                <input
                  id={input}
                  type="checkbox"
                  className="form-check-input"
                  checked={chosen.includes(entry.name)}
                  onChange={(event) => toggle(entry.name, event.target.checked)}
                  aria-describedby={`${input}-line`}
                />
                <label htmlFor={input} className="form-check-label font-monospace">
                  {entry.name}
                </label>
                <div id={`${input}-line`} className="form-text mt-0">
                  {entry.explanation}
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
