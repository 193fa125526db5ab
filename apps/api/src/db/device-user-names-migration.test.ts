import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsBefore, openBare, type BareDatabase } from '#api/test/bare-database.ts';
import { migrationsFolder } from './client.ts';

/*
 * Migration 0033 (issue 32): one sign-in name per person of a machine. A database from before it
 * may already hold the clash it forbids, a doctor registered under a technician's name on the same
 * machine; the migration must still apply, and the doctor (who is who signs in with it today)
 * keeps the name.
 */

let bare: BareDatabase;
let before: string;
beforeAll(async () => {
  bare = await openBare();
  before = migrationsBefore('_device_user_names');
});
afterAll(async () => {
  await bare.close();
  rmSync(before, { recursive: true, force: true });
});

const names = () =>
  bare.query(`select d.machine_number as machine, n.name_key as name,
      case when n.doctor_id is not null then 'doctor' else 'technician' end as kind
    from device_user_names n join devices d on d.id = n.device_id order by 1, 2`);

describe('the device user names migration', () => {
  it('applies over an existing clash, keeping the name for the doctor, and registers everyone else', async () => {
    await bare.migrate(before);
    await bare.query(`insert into roles (role_name, type) values ('Technicians', 'app')`);
    await bare.query(`insert into users (user_name, email, password_hash, role_id)
      select name, name || '@example.com', 'x', (select id from roles where role_name = 'Technicians')
      from unnest(array['Tess', 'tom']) as name`);
    await bare.query(`insert into devices (machine_number, serial_number, location, latitude, longitude, city, country, address)
      select m, 'SN-' || m, 'Clinic', 52.5, 13.4, 'Berlin', 'Germany', 'Street 1' from unnest(array['M-1', 'M-2']) as m`);
    // On M-1: Tess is a technician and a doctor registered as TESS (the clash); tom is a technician;
    // dr.ann a doctor; dr.nopw a doctor without a password (cannot sign in). On M-2: Tess only.
    await bare.query(`insert into technicians (device_id, user_name, email, account_id)
      select d.id, u.user_name, u.email, u.id from devices d, users u
      where d.machine_number = 'M-1' or u.user_name = 'Tess'`);
    await bare.query(`insert into doctors (device_id, user_name, email, password_hash)
      select id, n, n || '@example.com', case when n = 'dr.nopw' then null else 'x' end
      from devices, unnest(array['TESS', 'dr.ann', 'dr.nopw']) as n where machine_number = 'M-1'`);

    await bare.migrate(migrationsFolder);

    expect(await names()).toEqual([
      { machine: 'M-1', name: 'dr.ann', kind: 'doctor' },
      { machine: 'M-1', name: 'tess', kind: 'doctor' },
      { machine: 'M-1', name: 'tom', kind: 'technician' },
      { machine: 'M-2', name: 'tess', kind: 'technician' },
    ]);
  });

  it('gives the technician left out a name of their own once an admin renames their account', async () => {
    await bare.query(`update users set user_name = 'tess.tech' where user_name = 'Tess'`);
    expect(await names()).toEqual([
      { machine: 'M-1', name: 'dr.ann', kind: 'doctor' },
      { machine: 'M-1', name: 'tess', kind: 'doctor' },
      { machine: 'M-1', name: 'tess.tech', kind: 'technician' },
      { machine: 'M-1', name: 'tom', kind: 'technician' },
      { machine: 'M-2', name: 'tess.tech', kind: 'technician' },
    ]);
    // A name a doctor holds on one of their machines: the rename fails on the table's key.
    type PgError = { constraint?: string; cause?: { constraint?: string } };
    const refused = await bare.query(`update users set user_name = 'DR.ANN' where user_name = 'tom'`).then(
      () => null,
      (error: PgError) => error,
    );
    expect(refused?.cause?.constraint ?? refused?.constraint).toBe(
      'device_user_names_device_id_user_name_pk',
    );
  });
});
