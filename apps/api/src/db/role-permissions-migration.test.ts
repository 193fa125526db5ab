import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionCatalogue } from '@app/contract/permissions';
import { migrationsBefore, openBare } from '#api/test/bare-database.ts';
import { migrationsFolder } from './client.ts';

/*
 * A database migrated up to the migration before the role permissions (so it holds roles made
 * before permissions existed), then the rest.
 */

/**
 * What the migrations give: every permission but those added since with `grantedWith`, which a
 * start-up hands out (lib/permission-rollout.ts, decision 067), not a migration.
 */
const migrated = permissionCatalogue.filter((p) => !('grantedWith' in p)).map((p) => p.name);

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

    const rows = await bare.query(`select role_name, type, permissions from roles order by role_id`);
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
