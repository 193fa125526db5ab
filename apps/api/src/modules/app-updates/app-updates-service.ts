import type { Readable } from 'node:stream';
import { count, desc, eq } from 'drizzle-orm';
import { ManifestError, type ApkManifest } from '@app/contract/apk-manifest';
import {
  appUpdateFieldKeys,
  appUpdateFieldsSchema,
  appUpdateMessages,
  type AppUpdate,
  type AppUpdateFields,
  type LatestUpdate,
} from '@app/contract/app-updates';
import { inputMessages } from '@app/contract/fields';
import type { Db } from '#api/db/client.ts';
import { appUpdates } from '#api/db/schema/app-updates.ts';
import {
  AppError,
  BadRequestError,
  ConflictError,
  NotFoundError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from '#api/lib/errors.ts';
import { isUniqueViolation, offsetOf, pageCount } from '#api/lib/pagination.ts';
import type { HistoryActor } from '#api/lib/record-history.ts';
import type { Storage, StoredObject } from '#api/lib/storage/storage.ts';
import { storageKey } from '#api/lib/storage/storage-key.ts';
import { validationMessage } from '#api/lib/validation-message.ts';
import { checkApk, defaultApkLimits, type ApkLimits, type ApkVerdict } from './apk-check.ts';
import { readApkManifestFile } from './apk-manifest-file.ts';
import { createReleaseRules, reachesEveryMachine } from './release-rules.ts';
import { appUpdateDto } from './app-update-dto.ts';
import { safeApkFileName } from './apk-file-name.ts';
import { chooseOffer } from './rollout-offer.ts';
import { cohortTallies, progressOf } from './rollout-progress.ts';
import { devicesRunning, runningKey } from './running-devices.ts';
import { waitingTallies, type UpdateWindow } from './update-window.ts';

/** One part of a multipart body, as the route hands it over (fields as text, the file as a stream). */
export type UploadPart =
  | { type: 'field'; fieldname: string; value: unknown }
  | { type: 'file'; fieldname: string; filename: string; file: Readable };

type Row = typeof appUpdates.$inferSelect;
type StoredApk = { key: string; fileName: string; size: number; sha256: string; manifest: ApkManifest };

export const apkContentType = 'application/vnd.android.package-archive';

function parseFields(raw: Record<string, unknown>): AppUpdateFields {
  const parsed = appUpdateFieldsSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  throw new BadRequestError(validationMessage(issues), { errors: issues });
}

/** A 413 for what the ZIP declares, kept apart from the 413 for the bytes received. */
class ZipLimitError extends PayloadTooLargeError {}

/** The client's error for a refused APK: 413 for declared sizes over the limits, 415 for the rest. */
function refusal(verdict: Exclude<ApkVerdict, { ok: true }>): AppError {
  switch (verdict.reason) {
    case 'too-many-entries':
      return new ZipLimitError(`${appUpdateMessages.tooManyEntries} (${verdict.detail})`);
    case 'too-large-uncompressed':
      return new ZipLimitError(`${appUpdateMessages.unpacksTooLarge} (${verdict.detail})`);
    case 'unsafe-name':
      return new UnsupportedMediaTypeError(`${appUpdateMessages.unsafeEntryName}: ${verdict.detail}`);
    case 'malformed':
      return new UnsupportedMediaTypeError(`${appUpdateMessages.malformed} (${verdict.detail})`);
    case 'not-apk':
      return new UnsupportedMediaTypeError(appUpdateMessages.apkContent);
  }
}

/** The APK's manifest; one that cannot be read is the client's file's fault, a 415 naming the file. */
async function readManifest(localPath: string): Promise<ApkManifest> {
  try {
    return await readApkManifestFile(localPath);
  } catch (error) {
    if (error instanceof ManifestError)
      throw new UnsupportedMediaTypeError(`${appUpdateMessages.manifestUnreadable} (${error.message})`);
    throw error;
  }
}

export function createAppUpdatesService(deps: {
  db: Db;
  storage: Storage;
  publicUrl: string;
  apkMaxBytes: number;
  apkLimits?: ApkLimits;
  /** The lowest versionCode still supported: machines below it must update (minimum-supported-version.ts). */
  minimumSupportedVersion: () => Promise<number | null>;
  /** ROLLOUT_SECOND_ADMIN: a Force or 100 % release waits for a second admin (decision 051). */
  secondAdminApproval: boolean;
  /** A release that respects maintenance windows waits for the machine's (update-window.ts). */
  updateWindow: UpdateWindow;
}) {
  const { db, storage, publicUrl, apkMaxBytes, apkLimits = defaultApkLimits, minimumSupportedVersion } = deps;
  const needsApproval = (f: AppUpdateFields) => deps.secondAdminApproval && reachesEveryMachine(f);
  const rules = createReleaseRules(db);

  const toDto = (row: Row) => appUpdateDto(row, publicUrl);

  /**
   * Streams the file into storage; kept only when it is a ZIP within the zip limits whose
   * AndroidManifest.xml reads, and (when the fields came first) that makes a valid next release.
   */
  async function storeApk(
    filename: string,
    file: Readable,
    early: AppUpdateFields | null,
  ): Promise<StoredApk> {
    const key = storageKey('apks', 'apk');
    const read: { manifest?: ApkManifest } = {};
    try {
      const put = await storage.put(key, file, {
        contentType: apkContentType,
        maxBytes: apkMaxBytes,
        check: async (localPath) => {
          const verdict = await checkApk(localPath, apkLimits);
          if (!verdict.ok) throw refusal(verdict);
          // Only after the zip-bomb checks: one entry, read and inflated within a bound.
          read.manifest = await readManifest(localPath);
          // Before the object becomes visible: on S3, before the bucket sees a byte.
          if (early) await rules.assertRelease(early, read.manifest);
        },
      });
      if (!read.manifest) throw new Error('storage.put skipped the content check');
      return { key, fileName: safeApkFileName(filename), manifest: read.manifest, ...put };
    } catch (error) {
      // The multipart parser's own file-size stop reads as ours.
      if (
        (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE' ||
        (error instanceof PayloadTooLargeError && !(error instanceof ZipLimitError))
      ) {
        throw new PayloadTooLargeError(
          `${appUpdateMessages.tooLarge} (limit ${Math.floor(apkMaxBytes / (1024 * 1024))} MB)`,
        );
      }
      throw error;
    }
  }

  return {
    apkMaxBytes,

    /**
     * Takes the multipart body of POST system/updates. Fields sent before the file are checked
     * before a byte of it is stored; the file streams to storage. Any failure (bad field, wrong
     * content, too large, unreadable manifest, a form that disagrees with it, another package, a
     * versionCode not above the newest, client gone) leaves neither file nor row.
     *
     * A release for every machine (reachesEveryMachine) calls requireStepUp, which throws when the
     * admin has not confirmed the password: once the fields sent before the file have passed their
     * checks, before a byte of it is stored (the console sends its fields first), and again with the
     * final fields before the row is written (a field after the file; a stage left out is 100 %).
     */
    async create(
      parts: AsyncIterable<UploadPart>,
      { actor, requireStepUp }: { actor: HistoryActor | null; requireStepUp: () => Promise<void> },
    ): Promise<AppUpdate> {
      const userId = actor?.userId ?? null;
      const raw: Record<string, unknown> = {};
      let stored: StoredApk | null = null;
      try {
        for await (const part of parts) {
          if (part.type === 'field') {
            // Strict input (decision 020): a field the form does not have is refused, naming it.
            // (`apk` as text instead of a file ends as 'File is required' below.)
            if (part.fieldname === 'apk') continue;
            if (!Object.hasOwn(appUpdateFieldsSchema.shape, part.fieldname))
              throw new BadRequestError(inputMessages.unknownFields([part.fieldname]));
            raw[part.fieldname] = part.value;
            continue;
          }
          if (part.fieldname !== 'apk') {
            part.file.resume();
            throw new BadRequestError(inputMessages.unknownFields([part.fieldname]));
          }
          if (stored) {
            part.file.resume();
            continue;
          }
          if (!/\.apk$/i.test(part.filename)) {
            part.file.resume();
            throw new UnsupportedMediaTypeError(appUpdateMessages.apkContent);
          }
          // With the fields in hand, refuse early rather than after receiving a large file.
          const early = appUpdateFieldKeys.every((k) => k in raw) ? parseFields(raw) : null;
          if (early) await rules.assertVersionAbove(early.appName, early.versionCode);
          if (early && reachesEveryMachine(early)) await requireStepUp();
          stored = await storeApk(part.filename, part.file, early);
        }
        const fields = parseFields(raw);
        if (!stored) throw new BadRequestError(appUpdateMessages.fileRequired);
        if (reachesEveryMachine(fields)) await requireStepUp();
        const { key, fileName, size, sha256, manifest } = stored;
        // The file is the truth for the package and the version; the form had to agree with it.
        const row = await rules.insertRelease(actor, fields, manifest, async (tx) => {
          const [inserted] = await tx
            .insert(appUpdates)
            .values({
              ...fields,
              versionCode: manifest.versionCode,
              versionName: manifest.versionName ?? fields.versionName,
              packageName: manifest.packageName,
              storageKey: key,
              fileName,
              apkSize: size,
              apkSha256: sha256,
              createdBy: userId,
              ...(needsApproval(fields) && { approvalPending: 'release', approvalRequestedBy: userId }),
            })
            .returning();
          return inserted!;
        });
        return toDto(row);
      } catch (error) {
        if (stored) await storage.delete(stored.key);
        if (isUniqueViolation(error)) throw new ConflictError(appUpdateMessages.versionCodeTaken);
        throw error;
      }
    },

    async list({ page, limit }: { page: number; limit: number }) {
      // Releases are few (tens to hundreds): an exact count and an offset page stay cheap.
      const [rows, [{ total } = { total: 0 }]] = await Promise.all([
        db
          .select()
          .from(appUpdates)
          .orderBy(desc(appUpdates.createdAt), desc(appUpdates.id))
          .limit(limit)
          .offset(offsetOf(page, limit)),
        db.select({ total: count() }).from(appUpdates),
      ]);
      const [running, tallies, waiting] = await Promise.all([
        devicesRunning(db, rows),
        rows.length ? cohortTallies(db) : [],
        rows.length ? waitingTallies(db) : undefined,
      ]);
      const allSystems = rows.map((r) => ({
        ...toDto(r),
        deviceCount: running.get(runningKey(r)) ?? 0,
        progress: progressOf(tallies, r, waiting),
      }));
      return { allSystems, totalPages: pageCount(total, limit), total, page, limit };
    },

    toDto,

    /**
     * The update check (decision 051): an enrolled machine (deviceId) is answered by its cohort,
     * an anonymous caller by the releases at 100 %. Releases per app are few: all are read.
     */
    async latest({
      appName,
      versionCode,
      deviceId = null,
    }: {
      appName: string;
      versionCode?: number;
      deviceId?: string | null;
    }): Promise<LatestUpdate> {
      const releases = await db
        .select()
        .from(appUpdates)
        .where(eq(appUpdates.appName, appName))
        .orderBy(desc(appUpdates.versionCode));
      const offer = chooseOffer(releases, {
        deviceId,
        versionCode,
        minimumVersion: versionCode === undefined ? null : await minimumSupportedVersion(),
      });
      if (!offer) throw new NotFoundError(appUpdateMessages.noneForApp);
      const waiting = await deps.updateWindow.waitFor(offer, deviceId ?? null);
      const { release, ...answer } = offer;
      return {
        ...toDto(release),
        ...answer,
        ...(waiting && { updateAvailable: false, forceUpdate: false }),
        waiting,
      };
    },

    /** The APK of one update, ready to stream. */
    async openApk(id: string): Promise<{ update: AppUpdate; object: StoredObject }> {
      const [row] = await db.select().from(appUpdates).where(eq(appUpdates.id, id)).limit(1);
      if (!row) throw new NotFoundError(appUpdateMessages.notFound);
      const object = await storage.get(row.storageKey);
      if (!object) throw new AppError(410, 'The APK file of this update is no longer stored');
      return { update: toDto(row), object };
    },
  };
}

export type AppUpdatesService = ReturnType<typeof createAppUpdatesService>;
