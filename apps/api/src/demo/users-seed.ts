import { randomBytes } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import type { Permission } from '@app/contract/permissions';
import { ascii, consolePhone } from '@app/fake-data/people';
import type { Rng } from '@app/fake-data/random';
import type { Db } from '../db/client.ts';
import { accessLogs, errorLogs } from '../db/schema/logs.ts';
import { roles, users } from '../db/schema/users.ts';
import { hashPassword } from '../lib/passwords.ts';
import type { DemoContext } from './demo-context.ts';

/**
 * Console roles that follow the job (issue 15): Support looks after the machines and can see whether
 * they are paid for, but no health data and no users; the Auditor reads the logs and what they refer to.
 */
const extraRoles: { roleName: string; type: 'admin' | 'app'; permissions: Permission[] }[] = [
  {
    roleName: 'Support',
    type: 'admin',
    permissions: ['devices.view', 'devices.edit', 'devices.enrol', 'subscriptions.view'],
  },
  { roleName: 'Auditor', type: 'admin', permissions: ['devices.view', 'logs.view', 'subscriptions.view'] },
  { roleName: 'Clinic Manager', type: 'app', permissions: [] },
];

const firstNames = [
  'Amelia',
  'Noah',
  'Sofia',
  'Liam',
  'Mia',
  'Lucas',
  'Emma',
  'Elias',
  'Hannah',
  'Mateo',
  'Clara',
  'Jonas',
  'Lea',
  'Oskar',
];
const lastNames = [
  'Fischer',
  'Martin',
  'Rossi',
  'García',
  'Jansen',
  'Nielsen',
  'Dubois',
  'Schmidt',
  'Moreau',
  'Novak',
  'Berg',
  'Costa',
  'Weber',
  'Laurent',
];

/** What an admin does in the console, as the audit writer records it. */
const consoleResources = [
  'GET /api/v1/admin/machine',
  'GET /api/v1/admin/machine/:id',
  'PUT /api/v1/admin/machine/:id',
  'GET /api/v1/admin/doctor/all',
  'GET /api/v1/admin/patient/all',
  'GET /api/v1/admin/treatement-records/all',
  'GET /api/v1/admin/access-logs/all',
  'GET /api/v1/admin/users/all',
  'GET /api/v1/admin/roles/all',
  'GET /api/v1/admin/subscrption/all',
  'GET /api/v1/admin/profile',
] as const;
const consoleErrors = [
  {
    resource: 'POST /api/v1/admin/users/',
    functionName: 'createUser',
    statusCode: 409,
    message: 'A user with this email already exists',
  },
  {
    resource: 'PUT /api/v1/admin/users/:id',
    functionName: 'updateUser',
    statusCode: 400,
    message: 'Phone number must be 10 digits',
  },
  {
    resource: 'DELETE /api/v1/admin/roles/:id',
    functionName: 'deleteRole',
    statusCode: 409,
    message:
      'This role is assigned to 3 users and cannot be deleted. Move those users to another role first.',
  },
  {
    resource: 'POST /api/v1/admin/machine/add',
    functionName: 'postMachineAdd',
    statusCode: 409,
    message: 'A device with this machine number already exists',
  },
] as const;

/**
 * Demo roles and console users (roles of both types, so the dropdown and the 'Web' label show),
 * plus a month of what those admins did in the console for the Admin Logs. The demo users get one
 * random password nobody knows: they are there to be listed, edited and deleted, not to sign in.
 */
export async function seedUsers(db: Db, rng: Rng, context: DemoContext): Promise<void> {
  const { now } = context;
  const day = 24 * 60 * 60 * 1000;
  await db
    .insert(roles)
    .values(extraRoles.map((r, i) => ({ ...r, createTime: new Date(now.getTime() - (300 - i * 20) * day) })))
    .onConflictDoNothing();
  const roleRows = await db
    .select({ id: roles.id, roleName: roles.roleName })
    .from(roles)
    .where(inArray(roles.roleName, ['Admin', 'Support', 'Auditor', 'Technician', 'Clinic Manager']));
  const roleId = (name: string) => roleRows.find((r) => r.roleName === name)?.id;
  const assignable = [
    'Admin',
    'Admin',
    'Support',
    'Support',
    'Auditor',
    'Technician',
    'Clinic Manager',
  ].filter((n) => roleId(n));
  if (!assignable.length) return;

  const passwordHash = await hashPassword(randomBytes(24).toString('base64url'));
  const people = firstNames.map((firstName, i) => {
    const lastName = lastNames[i]!;
    const handle = `${ascii(firstName)}.${ascii(lastName)}`;
    return {
      firstName,
      lastName,
      userName: handle.replace('.', '_'),
      email: `${handle}@example.com`,
      phone: consolePhone(rng),
      roleId: roleId(assignable[i % assignable.length]!)!,
      passwordHash,
      isDeletable: true,
      createdAt: new Date(now.getTime() - rng.int(5, 200) * day - rng.int(0, day)),
    };
  });
  const created = await db
    .insert(users)
    .values(people)
    .onConflictDoNothing()
    .returning({ id: users.id, email: users.email, roleId: users.roleId });

  const admins = created.filter((u) => ['Admin', 'Support', 'Auditor'].some((n) => roleId(n) === u.roleId));
  if (!admins.length) return;
  const location = () => `192.168.${rng.int(0, 20)}.${rng.int(2, 254)}`;
  const accessRows = Array.from({ length: 400 }, () => {
    const who = rng.pick(admins);
    return {
      createdAt: new Date(now.getTime() - rng.int(0, 30 * day)),
      userId: who.id,
      userEmail: who.email,
      resource: rng.pick(consoleResources),
      location: location(),
      statusCode: 200,
      durationMs: rng.int(2, 60),
    };
  });
  const errorRows = Array.from({ length: 24 }, () => {
    const who = rng.pick(admins);
    return {
      ...rng.pick(consoleErrors),
      createdAt: new Date(now.getTime() - rng.int(0, 30 * day)),
      userId: who.id,
      userEmail: who.email,
      location: location(),
    };
  });
  await db.insert(accessLogs).values(accessRows);
  await db.insert(errorLogs).values(errorRows);
}
