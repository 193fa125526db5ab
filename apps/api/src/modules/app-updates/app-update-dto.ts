import type { AppUpdate } from '@app/contract/app-updates';
import { apiPaths } from '@app/contract/paths';
import type { appUpdates } from '#api/db/schema/app-updates.ts';

type Row = typeof appUpdates.$inferSelect;

/** A release as the API answers it: the row, its public download address, its rollout. */
export const appUpdateDto = (row: Row, publicUrl: string): AppUpdate => ({
  _id: row.id,
  id: row.id,
  appName: row.appName,
  versionCode: row.versionCode,
  versionName: row.versionName,
  remark: row.remark,
  updateDesc: row.updateDesc,
  updateType: row.updateType,
  apkUrl: `${publicUrl}${apiPaths.appUpdateApk(row.id)}`,
  fileName: row.fileName,
  apkSize: row.apkSize,
  apkSha256: row.apkSha256,
  packageName: row.packageName,
  createdAt: row.createdAt.toISOString(),
  rolloutPercent: row.rolloutPercent,
  rolloutState: row.rolloutState as AppUpdate['rolloutState'],
  approvalPending: row.approvalPending as AppUpdate['approvalPending'],
  approvalRequestedBy: row.approvalRequestedBy,
  respectsWindow: row.respectsWindow,
});
