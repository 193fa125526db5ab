import { Readable } from 'node:stream';
import type { Rng } from '@app/fake-data/random';
import type { Db } from '../db/client.ts';
import { appUpdates } from '../db/schema/app-updates.ts';
import { storageKey } from '../lib/storage/storage-key.ts';
import { buildDemoApk } from '../modules/app-updates/zip-writer.ts';
import type { DemoContext } from './demo-context.ts';

const apps = [
  {
    appName: 'com.treatment.device',
    releases: [
      {
        versionName: '1.0.0',
        remark: 'First release',
        updateDesc: 'Treatment sessions, device pairing and records sync.',
      },
      {
        versionName: '1.1.0',
        remark: 'Patient search',
        updateDesc: 'Search patients by name and phone; faster record upload.',
      },
      {
        versionName: '1.2.0',
        remark: 'Security fix',
        updateDesc: 'Fixes a session handling issue. Every device must update.',
      },
      {
        versionName: '1.3.0',
        remark: 'Energy charts',
        updateDesc: 'Charts of treatment energy per session and per week.',
        // Staged: the demo fleet's machines in its cohort take it, the others stay below.
        rolloutPercent: 30,
      },
    ],
  },
  {
    appName: 'com.treatment.technician',
    releases: [
      {
        versionName: '2.0.0',
        remark: 'New technician app',
        updateDesc: 'Calibration checklists and service logs.',
      },
      {
        versionName: '2.0.1',
        remark: 'Bug fixes',
        updateDesc: 'Fixes a crash when a device goes offline during calibration.',
      },
    ],
  },
] as const;

/**
 * A few app updates with small generated APK-shaped files (a ZIP with a binary AndroidManifest.xml), so
 * the App Update page has rows whose downloads work. Needs the file storage; without one it adds nothing.
 */
export async function seedAppUpdates(db: Db, rng: Rng, context: DemoContext): Promise<void> {
  const { storage, now } = context;
  if (!storage) return;
  const day = 24 * 60 * 60 * 1000;
  let ageDays = 240;
  for (const app of apps) {
    for (const [index, release] of app.releases.entries()) {
      const versionCode = (index + 1) * 10;
      const apk = buildDemoApk(app.appName, versionCode, rng.int(2_000, 20_000), release.versionName);
      const key = storageKey('apks', 'apk');
      const stored = await storage.put(key, Readable.from([apk]));
      ageDays -= rng.int(10, 40);
      await db.insert(appUpdates).values({
        appName: app.appName,
        packageName: app.appName,
        versionCode,
        versionName: release.versionName,
        remark: release.remark,
        updateDesc: release.updateDesc,
        // The security fix is the one Force update.
        updateType: release.remark === 'Security fix' ? 2 : 1,
        rolloutPercent: 'rolloutPercent' in release ? release.rolloutPercent : 100,
        storageKey: key,
        fileName: `${app.appName.split('.').pop()}-${release.versionName}.apk`,
        apkSize: stored.size,
        apkSha256: stored.sha256,
        createdAt: new Date(now.getTime() - Math.max(ageDays, 1) * day),
      });
    }
  }
}
