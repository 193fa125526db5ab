import { and, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '#api/db/client.ts';
import { deviceCredentials } from '#api/db/schema/device-api.ts';

/** A credential still in use is written down at most this often (a broken app may call every second). */
const revokedCallEveryMs = 60_000;

/**
 * A refused device credential that is a revoked one of ours: the machine still calls after its
 * enrolment was revoked (a lost or stolen machine, an app that was not reset). The alarm rule
 * `revoked-calls` reads `revoked_call_at` (decision 049). One indexed UPDATE, only on the refusal
 * path; a credential we never issued matches no row.
 */
export async function noteRevokedCall(db: Db, secretHash: string, at: Date): Promise<void> {
  await db
    .update(deviceCredentials)
    .set({ revokedCallAt: at })
    .where(
      and(
        eq(deviceCredentials.secretHash, secretHash),
        isNotNull(deviceCredentials.revokedAt),
        or(
          isNull(deviceCredentials.revokedCallAt),
          lt(deviceCredentials.revokedCallAt, new Date(at.getTime() - revokedCallEveryMs)),
        ),
      ),
    );
}
