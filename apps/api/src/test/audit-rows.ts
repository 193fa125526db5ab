import { desc, gt } from 'drizzle-orm';
import { accessLogs } from '#api/db/schema/logs.ts';
import type { TestApp } from './test-app.ts';

/** The access rows `act` caused: every row written after it began, newest first, once flushed. */
export async function accessRowsOf(t: TestApp, act: () => Promise<unknown>) {
  await t.app.audit.flush();
  const [last] = await t.database.db
    .select({ id: accessLogs.id })
    .from(accessLogs)
    .orderBy(desc(accessLogs.id))
    .limit(1);
  await act();
  await t.app.audit.flush();
  return t.database.db
    .select()
    .from(accessLogs)
    .where(gt(accessLogs.id, last?.id ?? 0))
    .orderBy(desc(accessLogs.id));
}
