import { and, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { erasedMark, erasedName, type ErasurePart } from '@app/contract/erasure-texts';
import type { ErasureOutcomeItem } from '@app/contract/erasure';
import type { Db } from '#api/db/client.ts';
import { rowsOf } from '#api/db/rows-of.ts';
import { breakGlassAccesses } from '#api/db/schema/break-glass.ts';
import { patients } from '#api/db/schema/devices.ts';
import { erasureRequests } from '#api/db/schema/erasure.ts';
import { accessLogs, errorLogs } from '#api/db/schema/logs.ts';
import { mailOutbox } from '#api/db/schema/mail.ts';
import { treatmentImages, treatmentRecords } from '#api/db/schema/treatments.ts';
import { containsPattern } from '#api/lib/pagination.ts';
import { scrubSavedViews } from './erasure-saved-views.ts';

/*
 * Carries out an erasure decision in the deciding transaction (decision 085), everywhere the patient
 * appears: the patient's row (kept as a de-identified stub so a machine re-sending the patient does
 * not bring it back: registration is idempotent by the app's id), treatment records and their
 * pictures, the change history's values, and the name or contact written as text elsewhere (mail in
 * the outbox, saved views, break-glass reasons and notes, erasure request notes). Answers what it did
 * per place as counts, never a value. The audit logs are append-only and hash-chained (decisions 013,
 * 080): they name the patient by record id only and are counted, not rewritten.
 */

export type ErasedPatient = typeof patients.$inferSelect;

/** The history fields of migration 0049 each part erases. */
const historyFields: Record<ErasurePart, string[]> = {
  contact: ['email', 'phone', 'address'],
  identity: ['patientname'],
  treatments: [],
};

/** Words shorter than this are not searched for in free text: 'Al' would erase half of every mail. */
const shortestTerm = 3;

/** The values an erased part may have been copied as, into text elsewhere. */
export function termsOf(patient: ErasedPatient, parts: readonly ErasurePart[]): string[] {
  const values = [
    ...(parts.includes('identity') ? [patient.patientname, patient.nickName] : []),
    ...(parts.includes('contact') ? [patient.email, patient.phone, patient.address] : []),
  ];
  return [...new Set(values.map((v) => v?.trim() ?? '').filter((v) => v.length >= shortestTerm))];
}

/** A POSIX pattern matching the term anywhere, as it is (no regular-expression meaning). */
const literal = (term: string) => term.replace(/[\\^$.|?*+()[\]{}]/g, (c) => `\\${c}`);

/** The column with every term replaced by the mark, case-insensitively. */
function scrubbed(column: SQL | typeof mailOutbox.text, terms: readonly string[]): SQL {
  return terms.reduce<SQL>(
    (value, term) => sql`regexp_replace(${value}, ${literal(term)}, ${erasedMark}, 'gi')`,
    sql`${column}`,
  );
}

/** The column contains one of the terms (case-insensitively). */
const mentions = (column: SQL | typeof mailOutbox.text, terms: readonly string[]) =>
  or(...terms.map((term) => sql`${column} ilike ${containsPattern(term)}`))!;

export async function carryOutErasure(
  tx: Db,
  patient: ErasedPatient,
  parts: readonly ErasurePart[],
): Promise<ErasureOutcomeItem[]> {
  const outcome: ErasureOutcomeItem[] = [];
  const note = (place: string, done: string, count: number) => outcome.push({ place, done, count });
  const terms = termsOf(patient, parts);
  const identity = parts.includes('identity');

  // Treatments recorded without a link to the patient still carry the name the app wrote.
  const theirTreatments = or(
    eq(treatmentRecords.patientId, patient.id),
    and(
      isNull(treatmentRecords.patientId),
      eq(treatmentRecords.deviceId, patient.deviceId),
      sql`lower(${treatmentRecords.userName}) = lower(${patient.patientname})`,
    ),
  );
  if (parts.includes('treatments')) {
    const ids = (
      await tx.select({ id: treatmentRecords.id }).from(treatmentRecords).where(theirTreatments)
    ).map((r) => r.id);
    const images = ids.length
      ? await tx.$count(treatmentImages, inArray(treatmentImages.treatmentId, ids))
      : 0;
    if (ids.length) await tx.delete(treatmentRecords).where(inArray(treatmentRecords.id, ids));
    note('Treatment records', 'deleted', ids.length);
    note('Treatment pictures', 'deleted with their treatments', images);
  } else if (identity) {
    const kept = await tx
      .update(treatmentRecords)
      .set({ userName: erasedName })
      .where(theirTreatments)
      .returning({ id: treatmentRecords.id });
    note('Treatment records', 'kept, de-identified (the name replaced)', kept.length);
  }

  const contactValues = [patient.email || null, patient.phone, patient.address, patient.city, patient.state];
  const identityValues = [patient.patientname, patient.nickName, patient.sex, patient.age];
  if (parts.includes('contact') || identity) {
    await tx
      .update(patients)
      .set({
        ...(parts.includes('contact')
          ? { email: '', phone: null, address: null, city: null, state: null, country: null }
          : {}),
        ...(parts.includes('contact') ? { latitude: null, longitude: null } : {}),
        ...(identity ? { patientname: erasedName, nickName: null, sex: null, age: null } : {}),
      })
      .where(eq(patients.id, patient.id));
    if (parts.includes('contact'))
      note('Patient record', 'contact details erased', contactValues.filter((v) => v != null).length);
    if (identity)
      note(
        'Patient record',
        'name and personal details erased',
        identityValues.filter((v) => v != null).length,
      );
  }

  // After the row's update, whose own history rows (old values) are erased with the rest.
  const fields = parts.flatMap((p) => historyFields[p]);
  if (fields.length) {
    const [row] = rowsOf<{ n: string | number }>(
      await tx.execute(
        sql`select record_history_erase(${patient.id}, array[${sql.join(
          fields.map((f) => sql`${f}`),
          sql`, `,
        )}]::text[], ${JSON.stringify(erasedMark)}::jsonb) as n`,
      ),
    );
    note('Change history', 'old and new values replaced with [erased]', Number(row?.n ?? 0));
  }

  if (terms.length) {
    const mail = await tx
      .update(mailOutbox)
      .set({
        to: sql`case when ${mentions(sql`${mailOutbox.to}`, terms)} then ${erasedMark} else ${mailOutbox.to} end`,
        subject: scrubbed(sql`${mailOutbox.subject}`, terms),
        text: scrubbed(sql`${mailOutbox.text}`, terms),
        html: scrubbed(sql`${mailOutbox.html}`, terms),
      })
      .where(
        or(
          mentions(sql`${mailOutbox.to}`, terms),
          mentions(sql`${mailOutbox.subject}`, terms),
          mentions(sql`${mailOutbox.text}`, terms),
          mentions(sql`coalesce(${mailOutbox.html}, '')`, terms),
        ),
      )
      .returning({ id: mailOutbox.id });
    note('Mail outbox', 'messages with the name or contact replaced', mail.length);
    note('Saved views', 'views with the name or contact removed', await scrubSavedViews(tx, terms));
    const glass = await tx
      .update(breakGlassAccesses)
      .set({
        reason: scrubbed(sql`${breakGlassAccesses.reason}`, terms),
        signOffNote: scrubbed(sql`${breakGlassAccesses.signOffNote}`, terms),
      })
      .where(
        or(
          mentions(sql`${breakGlassAccesses.reason}`, terms),
          mentions(sql`coalesce(${breakGlassAccesses.signOffNote}, '')`, terms),
        ),
      )
      .returning({ id: breakGlassAccesses.id });
    note('Break-glass reviews', 'reasons and notes with the name or contact replaced', glass.length);
    const notes = await tx
      .update(erasureRequests)
      .set({ note: scrubbed(sql`${erasureRequests.note}`, terms) })
      .where(mentions(sql`coalesce(${erasureRequests.note}, '')`, terms))
      .returning({ id: erasureRequests.id });
    note('Erasure request notes', 'the name or contact replaced', notes.length);
  }

  const logRows = await tx.$count(
    accessLogs,
    or(eq(accessLogs.recordId, patient.id), sql`${accessLogs.listedIds} @> array[${patient.id}]::uuid[]`),
  );
  note('Access logs', 'kept: append-only, they name the patient by record id only', logRows);
  if (terms.length)
    note(
      'Error logs',
      'messages naming the patient (append-only: removed by the retention schedule)',
      await tx.$count(errorLogs, mentions(sql`coalesce(${errorLogs.message}, '')`, terms)),
    );
  return outcome;
}
