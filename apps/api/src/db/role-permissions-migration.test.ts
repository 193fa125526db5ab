import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsBefore, openBare } from '#api/test/bare-database.ts';
import { migrationsFolder } from './client.ts';

/*
 * A database migrated up to the migration before the role permissions (so it holds roles made
 * before permissions existed), then the rest.
 */

/**
 * What the migrations give: the twelve permissions of migration 0022, fixed as a migration is. Every
 * permission added to the catalogue since is handed out by a start-up (lib/permission-rollout.ts,
 * decision 067), to the first admin's role and the roles carrying its `grantedWith`, never by a
 * migration.
 */
const migrated = [
  'devices.view',
  'devices.edit',
  'devices.enrol',
  'patients.view',
  'patients.reveal',
  'logs.view',
  'users.manage',
  'roles.manage',
  'subscriptions.view',
  'subscriptions.manage',
  'app-updates.publish',
  'security.manage',
];

let bare: Awaited<ReturnType<typeof openBare>>;
let before: string;
beforeAll(async () => {
  bare = await openBare();
  before = migrationsBefore('_role_permissions');
});
afterAll(async () => {
  await bare.close();
  rmSync(before, { recursive: true, force: true });
});

describe('the role permissions migration', () => {
  it('gives every existing admin role every permission and app roles none, so nothing breaks', async () => {
    await bare.migrate(before);
    expect(
      await bare.query(`select column_name from information_schema.columns
        where table_name = 'roles' and column_name = 'permissions'`),
    ).toEqual([]);
    await bare.query(`insert into roles (role_name, type) values
      ('Admin', 'admin'), ('Night Shift', 'admin'), ('Doctor', 'app'), ('Clinic Manager', 'app')`);

    await bare.migrate(migrationsFolder);

    // A later migration (0057, decision 088) adds the two fixed clinic roles, with no permissions.
    expect(
      await bare.query(`select role_name, permissions from roles where type = 'clinic' order by role_name`),
    ).toEqual([
      { role_name: 'Clinic manager', permissions: [] },
      { role_name: 'Clinic staff', permissions: [] },
    ]);
    const rows = await bare.query(
      `select role_name, type, permissions from roles where type <> 'clinic' order by role_id`,
    );
    expect(rows).toEqual([
      { role_name: 'Admin', type: 'admin', permissions: migrated },
      { role_name: 'Night Shift', type: 'admin', permissions: migrated },
      { role_name: 'Doctor', type: 'app', permissions: [] },
      { role_name: 'Clinic Manager', type: 'app', permissions: [] },
    ]);
  });

  it('gives a role made afterwards no permissions unless it is given some', async () => {
    await bare.query(`insert into roles (role_name, type) values ('Later', 'admin')`);
    expect(await bare.query(`select permissions from roles where role_name = 'Later'`)).toEqual([
      { permissions: [] },
    ]);
  });
});
