import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '#api/db/client.ts';
import { rowsOf } from '#api/db/rows-of.ts';
import { breakGlassAccesses } from '#api/db/schema/break-glass.ts';
import { devices, patients } from '#api/db/schema/devices.ts';
import { mailOutbox } from '#api/db/schema/mail.ts';
import { savedViews } from '#api/db/schema/preferences.ts';
import { treatmentImages, treatmentRecords } from '#api/db/schema/treatments.ts';
import { users } from '#api/db/schema/users.ts';
import { recordActor } from '#api/lib/record-history.ts';

/*
 * A patient written everywhere a patient can appear, for the erasure tests: the row, treatments
 * (linked, and one the app recorded by name only) with a picture, a change history with old values,
 * a mail in the outbox, a saved view of a search for them, and a break-glass reason naming them.
 */

export type SeededPatient = {
  id: string;
  name: string;
  email: string;
  phone: string;
  machineNumber: string;
  /** The nickname and address, erased with the identity and the contact details. */
  others: string[];
};

export async function seedPatient(db: Db, adminEmail: string): Promise<SeededPatient> {
  const tag = randomBytes(4).toString('hex');
  const name = `Zelda Quartz${tag}`;
  const email = `zelda.${tag}@example.com`;
  const phone = `55512${parseInt(tag, 16) % 100000}`.padEnd(10, '7');
  const machineNumber = `ER-${tag}`;
  const [admin] = await db.select().from(users).where(eq(users.email, adminEmail));
  const [device] = await db
    .insert(devices)
    .values({
      machineNumber,
      serialNumber: `S-${tag}`,
      location: 'Clinic',
      latitude: 1,
      longitude: 2,
      city: 'Utrecht',
      country: 'Netherlands',
      address: 'Main St 1',
    })
    .returning({ id: devices.id });
  const [patient] = await db
    .insert(patients)
    .values({
      deviceId: device!.id,
      patientname: `Zelda Q. ${tag}`,
      nickName: `Zeldie${tag}`,
      email,
      phone,
      address: `Quartz Lane ${tag}`,
      city: 'Utrecht',
      age: 41,
    })
    .returning({ id: patients.id });
  const id = patient!.id;
  // A change made by an admin: the history keeps the old name and the new one.
  await db.transaction(async (tx) => {
    await recordActor(tx as unknown as Db, {
      userId: admin!.id,
      email: adminEmail,
      sessionId: '00000000-0000-4000-8000-000000000001',
    });
    await tx.update(patients).set({ patientname: name }).where(eq(patients.id, id));
  });
  const treatment = (patientId: string | null) => ({
    deviceId: device!.id,
    patientId,
    userName: name,
    treatmentDevice: 'ShockWave S1',
    treatmentPlan: 'Knee plan',
    treatmentStartTime: new Date('2026-11-01T10:00:00Z'),
  });
  const [linked] = await db
    .insert(treatmentRecords)
    .values([treatment(id), treatment(id), treatment(null)])
    .returning({ id: treatmentRecords.id });
  await db.insert(treatmentImages).values({ treatmentId: linked!.id, url: 'data:image/jpeg;base64,AAAA' });
  await db.insert(mailOutbox).values({
    to: email,
    subject: `Your treatment, ${name}`,
    text: `Dear ${name}, call ${phone}.`,
    status: 'logged',
  });
  await db.insert(savedViews).values({
    ownerId: admin!.id,
    list: 'treatments',
    name: `${name} follow-up`,
    query: `search=${encodeURIComponent(name)}&limit=25`,
  });
  await db.insert(breakGlassAccesses).values({
    patientId: id,
    machineNumber,
    userEmail: adminEmail,
    userName: 'Admin',
    reason: `${name} collapsed in the clinic`,
    declaredAt: new Date(),
    expiresAt: new Date(Date.now() + 60_000),
  });
  return { id, name, email, phone, machineNumber, others: [`Zeldie${tag}`, `Quartz Lane ${tag}`] };
}

/** Every table of the schema whose rows, as text, contain the value (case-insensitively), with counts. */
export async function tablesHolding(db: Db, value: string): Promise<Record<string, number>> {
  const tables = rowsOf<{ name: string }>(
    await db.execute(sql`select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`),
  ).map((r) => r.name);
  const found: Record<string, number> = {};
  for (const table of tables) {
    const [row] = rowsOf<{ n: string | number }>(
      await db.execute(
        sql`select count(*) as n from ${sql.identifier(table)} t where t::text ilike ${`%${value}%`}`,
      ),
    );
    if (Number(row?.n ?? 0) > 0) found[table] = Number(row!.n);
  }
  return found;
}
