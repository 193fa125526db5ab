import { randomBytes } from 'node:crypto';
import { AdminClient } from '@app/fleet-simulator/admin-client';
import { DeviceClient } from '@app/fleet-simulator/device-client';
import {
  fakeAccessLog,
  fakeDoctor,
  fakeErrorLog,
  fakePatient,
  fakeTreatment,
  seededRandom,
  tinyPng,
} from '@app/fleet-simulator/fake-data';
import { ApiError } from '@app/fleet-simulator/http';
import { confirmStepUp, e2eAdmin, expect, signIn, test } from './support/fixtures.ts';

/*
 * Issue 13 "Done when": an admin issues an enrolment code in the console, a machine (the fleet
 * simulator's client, over real HTTP) enrols with it and sends its records, they appear on Device
 * Details, and after the admin revokes the credential the machine's next call is refused.
 */

test.describe.configure({ timeout: 180_000 });

test('a machine enrols with a code issued in the console, its records show, and revocation shuts it out', async ({
  page,
  baseURL,
}) => {
  const tag = randomBytes(3).toString('hex').toUpperCase();
  const admin = new AdminClient({ baseUrl: baseURL! }, e2eAdmin.email, e2eAdmin.password);
  const device = await admin.addDevice({
    machineNumber: `ENROL-${tag}`,
    serialNumber: `SN-ENROL-${tag}`,
    location: 'Enrolment Clinic',
    latitude: 41.1579,
    longitude: -8.6291,
    city: 'Porto',
    country: 'Portugal',
    address: '10 Rua das Flores',
  });

  await signIn(page);
  await page.goto(`/admin/device-details/${device._id}`);
  const enrolment = page.getByRole('region', { name: 'Enrolment' });
  await expect(enrolment.getByText('Not enrolled', { exact: true })).toBeVisible();
  await enrolment.getByRole('button', { name: 'Issue enrolment code' }).click();
  const modal = page.getByRole('dialog', { name: `Enrolment code for ${device.machineNumber}` });
  const code = (await modal.getByTestId('enrolment-code').innerText()).trim();
  expect(code).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);
  await expect(modal.getByRole('img', { name: `QR code of enrolment code ${code}` })).toBeVisible();
  await modal.getByRole('button', { name: 'Done' }).click();
  await expect(modal).toBeHidden();

  // The machine, as the app: enrol, check in, its technician signs in and registers a doctor.
  const machine = new DeviceClient({ baseUrl: baseURL! });
  const enrolled = await machine.enrol(code);
  expect(enrolled.machineNumber).toBe(device.machineNumber);
  await machine.heartbeat(42, '4.2.0', { latitude: 41.1579, longitude: -8.6291 });

  const role = await admin.createAppRole(`E2E technicians ${tag}`);
  const technician = {
    userName: `e2e-tech-${tag.toLowerCase()}`,
    password: `Tech-${randomBytes(6).toString('hex')}`,
  };
  await admin.addTechnician(role._id, [device._id], technician);
  await machine.login(technician.userName, technician.password);

  const random = seededRandom(2024);
  const now = () => new Date();
  const doctorPassword = `Doc-${randomBytes(6).toString('hex')}`;
  const doctor = fakeDoctor(random, device.machineNumber, `e2e${tag}`, role.roleId, doctorPassword, now());
  expect((await machine.registerDoctors([doctor])).accepted).toBe(1);
  const session = await machine.login(doctor.username, doctorPassword);
  const patient = fakePatient(random, device.machineNumber, `e2ep${tag}`, now());
  expect((await machine.registerPatients([patient])).accepted).toBe(1);
  const treatment = fakeTreatment(random, patient.id, [tinyPng(random).toString('base64')], now());
  expect((await machine.sendTreatments([treatment])).accepted).toBe(1);
  const access = { ...fakeAccessLog(random, session.user.userId, now()), resource: `app/e2e-${tag}` };
  const error = { ...fakeErrorLog(random, session.user.userId, now()), functionName: `E2eProbe.run${tag}` };
  expect((await machine.sendAccessLogs([access])).accepted).toBe(1);
  expect((await machine.sendErrorLogs([error])).accepted).toBe(1);

  // Check-ins are written within about a second (coalesced, decision 022): once the version is in,
  // Device Details after a reload shows it, the enrolment, and every record the machine sent.
  await expect.poll(async () => (await admin.getDevice(device._id)).appVersionName).toBe('4.2.0');
  await page.reload();
  await expect(enrolment.getByText('Enrolled', { exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Device Details' }).getByText('4.2.0 (42)')).toBeVisible();
  await expect(
    page.getByRole('table', { name: 'Doctors' }).getByRole('cell', { name: doctor.username, exact: true }),
  ).toBeVisible();
  await page.getByRole('tab', { name: 'Patients' }).click();
  await expect(
    page.getByRole('table', { name: 'Patients' }).getByRole('cell', { name: patient.username, exact: true }),
  ).toBeVisible();
  await page.getByRole('tab', { name: 'Technicians' }).click();
  await expect(
    page
      .getByRole('table', { name: 'Technicians' })
      .getByRole('cell', { name: technician.userName, exact: true }),
  ).toBeVisible();
  const treatments = page.getByRole('table', { name: 'Treatment records' });
  await expect(treatments.getByRole('cell', { name: treatment.treatmentPlan, exact: true })).toBeVisible();
  await expect(
    page
      .getByRole('table', { name: 'Access logs' })
      .getByRole('cell', { name: access.resource, exact: true }),
  ).toBeVisible();
  await page.getByRole('tab', { name: 'Error Logs List' }).click();
  await expect(
    page
      .getByRole('table', { name: 'Error logs' })
      .getByRole('cell', { name: error.functionName, exact: true }),
  ).toBeVisible();

  // Revoked in the console: the machine's next call is refused with 401.
  await enrolment.getByRole('button', { name: 'Revoke' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke enrolment' });
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  // Revoking asks for the password first (decision 046).
  await confirmStepUp(page);
  await expect(page.getByText('Device credential revoked')).toBeVisible();
  await expect(enrolment.getByText('Revoked', { exact: true })).toBeVisible();
  const refused = await machine.heartbeat(42, '4.2.0').then(
    () => null,
    (err: unknown) => err,
  );
  expect(refused).toBeInstanceOf(ApiError);
  expect((refused as ApiError).status).toBe(401);
});
