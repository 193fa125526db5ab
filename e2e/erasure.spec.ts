import { randomBytes } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { AdminClient } from '@app/fleet-simulator/admin-client';
import { DeviceClient } from '@app/fleet-simulator/device-client';
import { fakeDoctor, fakePatient, fakeTreatment, seededRandom } from '@app/fleet-simulator/fake-data';
import { e2eAdmin, expect, expectAccessible, signIn, test } from './support/fixtures.ts';

/*
 * Issue 38 "Done when" (item 4, decision 085): an erasure request is decided and the patient's name
 * no longer appears anywhere in the console or its exports. A machine of this run's own (the fleet
 * simulator's client, over real HTTP) registers a patient with a name of this run's own and sends
 * their treatments; the admin records the request on the patient's page, decides it signed, and the
 * name is then on no screen, in no search and in no CSV.
 */

test.describe.configure({ timeout: 180_000 });

/** Every CSV the console exports that could hold the patient, unmasked, as one text. */
async function exportsText(request: APIRequestContext, machineNumber: string, search: string) {
  const login = await request.post('/api/v1/admin/login', {
    data: { email: e2eAdmin.email, password: e2eAdmin.password },
  });
  const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
  const texts: string[] = [];
  for (const url of [
    `/api/v1/admin/patient/export?machineNumber=${machineNumber}&reveal=true`,
    `/api/v1/admin/treatement-records/export?machineNumber=${machineNumber}&reveal=true`,
    `/api/v1/admin/treatement-records/export?search=${encodeURIComponent(search)}&reveal=true`,
  ]) {
    const res = await request.get(url, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status(), url).toBe(200);
    texts.push(await res.text());
  }
  return texts.join('\n');
}

test("an erasure request is decided and the patient's name no longer appears anywhere in the console or its exports", async ({
  page,
  baseURL,
  request,
}) => {
  const tag = randomBytes(3).toString('hex');
  const machineNumber = `ERASE-${tag.toUpperCase()}`;
  const name = `Erasmia Quill${tag}`;
  const admin = new AdminClient({ baseUrl: baseURL! }, e2eAdmin.email, e2eAdmin.password);
  const device = await admin.addDevice({
    machineNumber,
    serialNumber: `SN-${machineNumber}`,
    location: 'Erasure Clinic',
    latitude: 52.0907,
    longitude: 5.1214,
    city: 'Utrecht',
    country: 'Netherlands',
    address: '1 Domplein',
  });
  const machine = new DeviceClient({ baseUrl: baseURL! });
  await machine.enrol((await admin.issueEnrolmentCode(device._id)).code);
  const role = await admin.createAppRole(`E2E erasure ${tag}`);
  const technician = { userName: `e2e-erase-${tag}`, password: `Tech-${randomBytes(6).toString('hex')}` };
  await admin.addTechnician(role._id, [device._id], technician);
  await machine.login(technician.userName, technician.password);
  const random = seededRandom(parseInt(tag, 16));
  const doctorPassword = `Doc-${randomBytes(6).toString('hex')}`;
  const doctor = fakeDoctor(random, machineNumber, `e2erase${tag}`, role.roleId, doctorPassword, new Date());
  expect((await machine.registerDoctors([doctor])).accepted).toBe(1);
  await machine.login(doctor.username, doctorPassword);
  const patient = {
    ...fakePatient(random, machineNumber, `e2eq${tag}`, new Date()),
    username: name,
    email: `erasmia.${tag}@example.com`,
  };
  expect((await machine.registerPatients([patient])).accepted).toBe(1);
  const treatments = [0, 1].map(() => fakeTreatment(random, patient.id, [], new Date()));
  expect((await machine.sendTreatments(treatments)).accepted).toBe(2);
  expect(await exportsText(request, machineNumber, name)).toContain(name);

  // The patient's page: the name is there, and the request is recorded from it.
  await signIn(page);
  await page.goto(`/admin/device-details/${device._id}`);
  await page.getByRole('tab', { name: 'Patients' }).click();
  const patients = page.getByRole('table', { name: 'Patients' });
  await expect(patients.getByRole('cell', { name, exact: true })).toBeVisible();
  await patients
    .getByRole('link', { name: /^View / })
    .first()
    .click();
  const details = page.getByRole('region', { name: 'Patient Details' });
  await expect(details.getByText(name, { exact: true })).toBeVisible();
  await details.getByRole('button', { name: 'Record erasure request' }).click();
  const record = page.getByRole('dialog', { name: 'Record an erasure request' });
  await record.getByLabel('How did the request arrive?').selectOption('email');
  await record.getByLabel(/Note/).fill(`e2e ${tag}`);
  await expectAccessible(page);
  await record.getByRole('button', { name: 'Record erasure request' }).click();
  await expect(page).toHaveURL(/\/admin\/erasure-requests\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Erasure Request', level: 1 })).toBeVisible();
  await expect(page.getByText('Awaiting decision')).toBeVisible();

  // Decided: erase everything, signed with the password.
  await page.getByRole('button', { name: 'Decide' }).click();
  const decide = page.getByRole('dialog', { name: /^Decide: Patient \d+ on / });
  await decide.getByRole('radio', { name: 'Erase everything' }).check();
  await decide.getByLabel(/Meaning/).selectOption('approval');
  await decide.getByLabel(/Your password/).fill(e2eAdmin.password);
  await expectAccessible(page);
  await decide.getByRole('button', { name: 'Sign and erase' }).click();
  await expect(page.getByText("The patient's data has been erased")).toBeVisible();
  await expect(decide).toBeHidden();
  const decision = page.getByRole('region', { name: 'Decision' });
  await expect(decision.getByTestId('signature-line')).toContainText('Approval');
  await expect(page.getByRole('region', { name: 'What was kept, and why' })).toContainText(
    'Nothing was kept.',
  );
  await expect(
    page
      .getByRole('region', { name: 'What was done' })
      .getByRole('row', { name: /Treatment records deleted 2/ }),
  ).toBeVisible();
  await expect(page.getByText(name)).toHaveCount(0);
  await expectAccessible(page);

  // The list shows it under Erased, by id and machine.
  await page.goto('/admin/erasure-requests?state=erased');
  await expect(
    page
      .getByRole('table', { name: 'Erased' })
      .getByRole('link', { name: new RegExp(`on ${machineNumber}$`) }),
  ).toBeVisible();

  // Nowhere in the console: the machine's patients, the patient's page, the treatments and their search.
  await page.goto(`/admin/device-details/${device._id}`);
  await page.getByRole('tab', { name: 'Patients' }).click();
  await expect(patients.getByRole('cell', { name: 'Erased patient', exact: true })).toBeVisible();
  await expect(page.getByText(name)).toHaveCount(0);
  await patients
    .getByRole('link', { name: /^View / })
    .first()
    .click();
  await expect(details.getByText('Erased patient', { exact: true })).toBeVisible();
  await expect(page.getByText(name)).toHaveCount(0);
  await page.goto(`/admin/treatments?search=${encodeURIComponent(name)}`);
  await expect(page.getByText('No Treatment found.')).toBeVisible();
  await expect(page.getByText(name)).toHaveCount(0);

  // Nor in the exports, unmasked.
  const csv = await exportsText(request, machineNumber, name);
  expect(csv).not.toContain(name);
  expect(csv).not.toContain(patient.email);
});
