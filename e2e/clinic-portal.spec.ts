import { randomBytes } from 'node:crypto';
import { AdminClient } from '@app/fleet-simulator/admin-client';
import { DeviceClient } from '@app/fleet-simulator/device-client';
import { fakeDoctor, fakePatient, fakeTreatment, seededRandom } from '@app/fleet-simulator/fake-data';
import { payAsCustomer } from './support/subscriptions.ts';
import { expect, expectAccessible, test } from './support/fixtures.ts';
import { clinicServer } from './support/clinic-server.ts';

/*
 * Issue 39 "Done when": an admin creates a clinic, assigns two machines and invites its manager from
 * the clinic's page (the mail read from a real SMTP peer); the manager sets a password, signs in, sees
 * exactly those two machines and their treatment figures, opens a receipt, updates the card with the
 * demo provider and invites a colleague; the admin moves one machine to another clinic: the first
 * clinic keeps its old records of that machine and sees none of the new ones. The machines are the
 * fleet simulator's clients over real HTTP. A server of its own, for the SMTP peer.
 */
const admin = { email: 'portal-admin@example.com', password: 'Portal-Admin-Passw0rd' };
const { baseURL, adminHeaders, invitationLink } = clinicServer({
  name: 'clinic-portal',
  portOffset: 46,
  admin,
});
const password = 'Portal-Clinic-Passw0rd!';
const hour = 3_600_000;

test.describe.configure({ mode: 'serial', timeout: 360_000 });
test.use({ baseURL });

/** A machine of this run's own, enrolled, with a technician, a doctor and a patient signed in on it. */
async function machineWithPatient(adminApi: AdminClient, number: string, tag: string) {
  const device = await adminApi.addDevice({
    machineNumber: number,
    serialNumber: `SN-${number}`,
    location: 'Portal ward',
    latitude: 48.85,
    longitude: 2.35,
    city: 'Paris',
    country: 'France',
    address: '1 Rue de Rivoli',
  });
  const machine = new DeviceClient({ baseUrl: baseURL });
  await machine.enrol((await adminApi.issueEnrolmentCode(device._id)).code);
  const role = await adminApi.createAppRole(`Portal ${number}`);
  const technician = { userName: `tech-${number.toLowerCase()}`, password: `Tech-${tag}-Passw0rd` };
  await adminApi.addTechnician(role._id, [device._id], technician);
  await machine.login(technician.userName, technician.password);
  const random = seededRandom(parseInt(tag, 16) + number.length);
  const doctorPassword = `Doc-${tag}-Passw0rd`;
  const doctor = fakeDoctor(
    random,
    number,
    `doc${number}`,
    role.roleId,
    doctorPassword,
    new Date(Date.now() - 3 * hour),
  );
  expect((await machine.registerDoctors([doctor])).accepted).toBe(1);
  await machine.login(doctor.username, doctorPassword);
  const patient = fakePatient(random, number, `pat${number}`, new Date(Date.now() - 3 * hour));
  expect((await machine.registerPatients([patient])).accepted).toBe(1);
  /** Sends `count` treatments that ended `hoursAgo` hours ago. */
  const treat = async (count: number, hoursAgo: number) => {
    const at = new Date(Date.now() - hoursAgo * hour);
    const items = Array.from({ length: count }, () => fakeTreatment(random, patient.id, [], at));
    expect((await machine.sendTreatments(items)).accepted).toBe(count);
  };
  return { device, treat };
}

test('a clinic manager joins, sees exactly their machines and figures, pays and updates the card; a machine moved away keeps its old records with the clinic', async ({
  page,
  browser,
  request,
}) => {
  const tag = randomBytes(3).toString('hex').toUpperCase();
  const clinicName = `Clinique Portail ${tag}`;
  const manager = `manager.${tag.toLowerCase()}@portail.example`;
  const colleague = `staff.${tag.toLowerCase()}@portail.example`;
  const headers = await adminHeaders(request);
  const adminApi = new AdminClient({ baseUrl: baseURL }, admin.email, admin.password);

  // The clinic, another clinic, two machines held from four hours ago and one machine not the clinic's.
  const created = await request.post('/api/v1/admin/customers', {
    headers,
    data: {
      name: clinicName,
      country: 'France',
      billingEmail: `billing.${tag.toLowerCase()}@portail.example`,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const clinicId = (await created.json()).data._id as string;
  const other = await request.post('/api/v1/admin/customers', {
    headers,
    data: { name: `Autre Clinique ${tag}`, country: 'France' },
  });
  const otherId = (await other.json()).data._id as string;
  const kept = await machineWithPatient(adminApi, `PK${tag}`, tag);
  const moved = await machineWithPatient(adminApi, `PM${tag}`, tag);
  const elsewhere = await machineWithPatient(adminApi, `PX${tag}`, tag);
  const from = new Date(Date.now() - 4 * hour).toISOString();
  for (const { device } of [kept, moved]) {
    const res = await request.post(`/api/v1/admin/machine/${device._id}/assignment`, {
      headers,
      data: { customerId: clinicId, from },
    });
    expect(res.ok(), await res.text()).toBe(true);
  }
  await kept.treat(2, 2);
  await moved.treat(3, 2);
  await elsewhere.treat(4, 2);

  // A yearly plan for the kept machine (the clinic's: the machine's holder), paid with the demo card.
  const plan = await request.post('/api/v1/admin/subscrption/add', {
    headers,
    data: {
      fullName: 'Portail Billing',
      email: `billing.${tag.toLowerCase()}@portail.example`,
      machineSerialNumber: `SN-PK${tag}`,
      amount: 120,
      isRecurring: true,
      planType: 'year',
    },
  });
  expect(plan.status(), await plan.text()).toBe(201);
  await payAsCustomer(browser, (await plan.json()).data.link as string);

  // The admin invites the manager from the clinic's page.
  await page.goto('/login-admin');
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password', { exact: true }).fill(admin.password);
  await page.getByRole('button', { name: /sign in/i }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await page.goto(`/admin/customers/${clinicId}`);
  await expect(page.getByRole('heading', { level: 1, name: clinicName })).toBeVisible();
  await page.getByRole('button', { name: 'Invite user' }).click();
  const invite = page.getByRole('dialog', { name: 'Invite a clinic user' });
  await invite.getByLabel('Email').fill(manager);
  await invite.getByLabel('Role').selectOption({ label: 'Manager' });
  await expectAccessible(page);
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  await expect(invite).toBeHidden();
  await expect(page.getByRole('table', { name: 'Invitations waiting' }).getByText(manager)).toBeVisible();

  // The manager, in a browser of their own, sets a password from the mailed link.
  const clinicContext = await browser.newContext({ baseURL });
  const portal = await clinicContext.newPage();
  await portal.goto(await invitationLink(manager));
  await portal.getByLabel('First Name').fill('Paule');
  await portal.getByLabel('Last Name').fill('Manager');
  await portal.getByLabel('Password', { exact: true }).fill(password);
  await portal.getByLabel('Confirm Password').fill(password);
  await portal.getByRole('button', { name: 'Set password and sign in' }).click();
  await portal.getByRole('button', { name: 'Not now, open the portal' }).click();
  await expect(portal).toHaveURL(/\/clinic$/);
  const nav = portal.getByRole('navigation', { name: 'Clinic portal' });

  // Exactly the two machines.
  await nav.getByRole('link', { name: 'Machines' }).click();
  const machines = portal.getByRole('table', { name: 'Machines' });
  await expect(machines.getByRole('cell', { name: `PK${tag}`, exact: true })).toBeVisible();
  await expect(machines.getByRole('cell', { name: `PM${tag}`, exact: true })).toBeVisible();
  await expect(machines.getByRole('row').filter({ has: portal.getByRole('cell') })).toHaveCount(2);
  await expectAccessible(portal);

  // Their figures: 2 and 3 treatments, none of the other machine's 4.
  await nav.getByRole('link', { name: 'Figures' }).click();
  await expect(portal.getByText(/^5 treatments,/)).toBeVisible();
  await portal.getByRole('tab', { name: 'Per machine' }).click();
  const perMachine = portal.getByRole('table', { name: 'Treatments per machine' });
  await expect(perMachine.getByRole('row', { name: new RegExp(`^PK${tag} 2 `) })).toBeVisible();
  await expect(perMachine.getByRole('row', { name: new RegExp(`^PM${tag} 3 `) })).toBeVisible();
  await expect(perMachine.getByText(`PX${tag}`)).toHaveCount(0);
  await expectAccessible(portal);
  await portal.screenshot({ path: test.info().outputPath('figures.png'), fullPage: true });

  // Billing: the paid plan's receipt opens; the card is changed on the demo provider's form.
  await nav.getByRole('link', { name: 'Billing' }).click();
  const payments = portal.getByRole('table', { name: `Payments of the plan for machine SN-PK${tag}` });
  const [receipt] = await Promise.all([
    portal.waitForEvent('popup'),
    payments.getByRole('button', { name: /^Receipt of the payment of / }).click(),
  ]);
  await expect(receipt.locator('body')).toContainText('120.00');
  await receipt.close();
  await portal.getByRole('button', { name: 'Update card' }).click();
  const card = portal.getByRole('dialog', { name: 'Update card' });
  await card.getByLabel('Card number').fill('5555 5555 5555 4444');
  await card.getByLabel('Expiry (MM/YY)').fill('10/33');
  await card.getByLabel('CVC').fill('321');
  await expectAccessible(portal);
  await card.getByRole('button', { name: 'Save card' }).click();
  await expect(portal.getByText('Your card has been updated')).toBeVisible();
  await expect(card).toBeHidden();
  await expect(portal.getByText('•••• 4444')).toBeVisible();

  // The manager invites a colleague.
  await nav.getByRole('link', { name: 'Users' }).click();
  await portal.getByRole('button', { name: 'Invite a colleague' }).click();
  const colleagueDialog = portal.getByRole('dialog', { name: 'Invite a colleague' });
  await colleagueDialog.getByLabel('Email').fill(colleague);
  await colleagueDialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(portal.getByRole('table', { name: 'Waiting invitations' }).getByText(colleague)).toBeVisible();
  expect(await invitationLink(colleague)).toMatch(/^\/invite\//);

  // The clinic's activity: the manager's own writes by email, the supplier's as the supplier.
  await nav.getByRole('link', { name: 'Activity' }).click();
  await expect(portal).toHaveURL(/\/clinic\/activity$/);
  // Newest first: the manager's own requests fill the first page; the supplier's are older.
  await portal.goto('/clinic/activity?limit=100');
  const activity = portal.getByRole('table', { name: 'Clinic activity' });
  await expect(activity.getByRole('row').filter({ hasText: manager }).first()).toBeVisible();
  await expect(activity.getByRole('row').filter({ hasText: 'Your supplier' }).first()).toBeVisible();
  await expect(activity.getByText(admin.email)).toHaveCount(0);
  await expectAccessible(portal);
  await portal.screenshot({ path: test.info().outputPath('activity.png') });

  // The admin moves one machine to the other clinic an hour ago; it works there since.
  const move = await request.post(`/api/v1/admin/machine/${moved.device._id}/assignment`, {
    headers,
    data: { customerId: otherId, from: new Date(Date.now() - hour).toISOString(), reason: 'Resold' },
  });
  expect(move.ok(), await move.text()).toBe(true);
  // Each lasts 8 to 40 minutes and counts from its start: ending now, each began after the move.
  await moved.treat(6, 0);

  // The first clinic: one machine now; its figures keep the moved machine's 3 old treatments, as a
  // former machine, and none of the 6 made since.
  await nav.getByRole('link', { name: 'Machines' }).click();
  await expect(machines.getByRole('cell', { name: `PK${tag}`, exact: true })).toBeVisible();
  await expect(machines.getByRole('row').filter({ has: portal.getByRole('cell') })).toHaveCount(1);
  await nav.getByRole('link', { name: 'Figures' }).click();
  await expect(portal.getByText(/^5 treatments,/)).toBeVisible();
  await portal.getByRole('tab', { name: 'Per machine' }).click();
  await expect(perMachine.getByRole('row', { name: new RegExp(`^PK${tag} 2 `) })).toBeVisible();
  await expect(
    perMachine.getByRole('row', { name: new RegExp(`^Former machine ${moved.device._id.slice(0, 8)} 3 `) }),
  ).toBeVisible();
  await expect(perMachine.getByText(`PM${tag}`)).toHaveCount(0);
  await expectAccessible(portal);
  await clinicContext.close();
});
