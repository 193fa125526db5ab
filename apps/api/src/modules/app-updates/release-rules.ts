import { and, asc, eq, isNotNull, max, sql } from 'drizzle-orm';
import { appUpdateMessages, type AppUpdateFields } from '@app/contract/app-updates';
import type { ApkManifest } from '@app/contract/apk-manifest';
import type { Db } from '#api/db/client.ts';
import { appUpdates } from '#api/db/schema/app-updates.ts';
import { BadRequestError, ConflictError } from '#api/lib/errors.ts';
import { recordActor, type HistoryActor } from '#api/lib/record-history.ts';

/** The database or a transaction on it: what the checks read through. */
type Reader = Pick<Db, 'select'>;

/** A form field that disagrees with the file: a 400 naming the field, shaped like a validation error. */
const formDisagrees = (path: keyof AppUpdateFields, message: string) =>
  new BadRequestError(message, { errors: [{ path, message }] });

/**
 * A release that every machine is offered at once, or that machines must install: a Force update,
 * or one at 100 % (the stage when the upload names none). Publishing it needs a step-up (decision
 * 046), as advancing a release to 100 % does; with ROLLOUT_SECOND_ADMIN it also waits for a second
 * admin (decision 051).
 */
export const reachesEveryMachine = (f: Pick<AppUpdateFields, 'updateType' | 'rolloutPercent'>) =>
  f.updateType === 2 || (f.rolloutPercent ?? 100) === 100;

/**
 * What makes an APK a valid next release of an app (issue 16). The manifest is the truth: the
 * form must agree with it, its package must be the app's (the first release that recorded one
 * set it), and its versionCode must be above the app's newest.
 */
export function createReleaseRules(db: Db) {
  /** Refuses a versionCode that is not above the app's newest: before the file when the fields come first. */
  async function assertVersionAbove(appName: string, versionCode: number, tx: Reader = db) {
    const [{ newest } = { newest: null }] = await tx
      .select({ newest: max(appUpdates.versionCode) })
      .from(appUpdates)
      .where(eq(appUpdates.appName, appName));
    if (newest === null || versionCode > newest) return;
    throw new ConflictError(
      versionCode === newest
        ? appUpdateMessages.versionCodeTaken
        : appUpdateMessages.versionCodeNotAbove(newest),
    );
  }

  async function assertRelease(fields: AppUpdateFields, manifest: ApkManifest, tx: Reader = db) {
    if (fields.versionCode !== manifest.versionCode)
      throw formDisagrees('versionCode', appUpdateMessages.versionCodeFileMismatch(manifest.versionCode));
    // A versionName held in a resource (null here) cannot be read without resources.arsc: the form's stands.
    if (manifest.versionName !== null && fields.versionName !== manifest.versionName)
      throw formDisagrees('versionName', appUpdateMessages.versionNameFileMismatch(manifest.versionName));
    const [app] = await tx
      .select({ packageName: appUpdates.packageName })
      .from(appUpdates)
      .where(and(eq(appUpdates.appName, fields.appName), isNotNull(appUpdates.packageName)))
      .orderBy(asc(appUpdates.createdAt), asc(appUpdates.id))
      .limit(1);
    if (app?.packageName && app.packageName !== manifest.packageName)
      throw new ConflictError(appUpdateMessages.packageMismatch(manifest.packageName, app.packageName));
    await assertVersionAbove(fields.appName, manifest.versionCode, tx);
  }

  return {
    assertVersionAbove,
    /** Checks a release against the app's releases so far: for the early check inside the upload. */
    assertRelease,
    /**
     * Checks and stores a release in one transaction, holding a lock on the app's name, so two
     * uploads at once cannot both become the first package or pass each other's versionCode.
     */
    insertRelease<T>(
      /** Who publishes it: its history starts with the values it was published with (decision 081). */
      actor: HistoryActor | null,
      fields: AppUpdateFields,
      manifest: ApkManifest,
      insert: (tx: Pick<Db, 'insert'>) => Promise<T>,
    ) {
      return db.transaction(async (tx) => {
        await recordActor(tx as unknown as Db, actor);
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`app_updates:${fields.appName}`}))`);
        await assertRelease(fields, manifest, tx);
        return insert(tx);
      });
    },
  };
}
