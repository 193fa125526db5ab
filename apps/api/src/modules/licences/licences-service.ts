import { and, desc, eq } from 'drizzle-orm';
import {
  licenceLocks,
  licenceMessages,
  type ExemptionBody,
  type Licence,
  type LicenceCause,
  type LicenceEvent,
  type LicenceState,
} from '@app/contract/licences';
import type { LicencesConfig } from '#api/config-licences.ts';
import type { Db } from '#api/db/client.ts';
import { devices } from '#api/db/schema/devices.ts';
import { licenceEvents, licenceExemptions } from '#api/db/schema/licences.ts';
import { subscriptions } from '#api/db/schema/subscriptions.ts';
import { BadRequestError, ConflictError, NotFoundError } from '#api/lib/errors.ts';
import { withActor, type HistoryActor } from '#api/lib/record-history.ts';
import {
  recomputeLicences,
  type LicenceChange,
  type LicenceChangeCause,
  type LicenceScope,
} from './licence-ledger.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
/** The last moment of a UTC day given as YYYY-MM-DD: an exemption "until" that day holds all of it. */
const endOfDay = (day: string) => new Date(`${day}T23:59:59.999Z`);
const historyShown = 50;

/**
 * Machines' licences (decision 068): what the console reads and an admin's exemption, and the
 * recompute every change to a subscription ends with. Shared (app-services.ts): the subscriptions
 * module recomputes a machine after a payment, a webhook or an admin's action.
 */
export function createLicences({ db, now, config }: { db: Db; now: () => Date; config: LicencesConfig }) {
  const recompute = (
    scope: LicenceScope,
    why: LicenceChangeCause,
    executor: Db = db,
  ): Promise<LicenceChange[]> =>
    recomputeLicences(executor, { scope, at: now(), graceDays: config.graceDays, why });

  async function deviceOf(deviceId: string) {
    const [row] = await db
      .select({
        id: devices.id,
        state: devices.licenceState,
        paidThrough: devices.licencePaidThrough,
        graceUntil: devices.licenceGraceUntil,
        version: devices.licenceVersion,
        since: devices.licenceSince,
      })
      .from(devices)
      .where(eq(devices.id, deviceId))
      .limit(1);
    if (!row) throw new NotFoundError(licenceMessages.notFound);
    return row;
  }

  return {
    recompute,

    /** One machine, after something about its subscriptions changed. */
    recomputeDevice: (deviceId: string, cause: LicenceCause, extra: Omit<LicenceChangeCause, 'cause'> = {}) =>
      recompute({ deviceIds: [deviceId] }, { cause, ...extra }),

    /**
     * The machine of a subscription that just changed, in the caller's transaction (`executor`) so
     * it sees the change; nothing for a subscription that names no machine (made before machines
     * were required).
     */
    async recomputeForSubscription(executor: Db, subscriptionId: string, why: LicenceChangeCause) {
      const [row] = await executor
        .select({ deviceId: subscriptions.deviceId })
        .from(subscriptions)
        .where(eq(subscriptions.id, subscriptionId))
        .limit(1);
      if (!row?.deviceId) return [];
      return recompute({ deviceIds: [row.deviceId] }, { subscriptionId, ...why }, executor);
    },

    /** What one payment licenses when it is not recurring: LICENCE_ONE_TIME_DAYS from the payment. */
    oneTimePaidThrough: (paidAt: Date) => new Date(paidAt.getTime() + config.oneTimeDays * 86_400_000),

    /** The clock's changes (every LICENCE_SWEEP_SECONDS), or every machine (daily, and at start). */
    sweep: (all = false) => recompute(all ? { all: true } : { due: true }, { cause: 'expiry' }),

    /** Whether a machine in this state may start a treatment now. */
    locks: (state: LicenceState) => licenceLocks(state, config.enforcement),

    /** Device Details' Licence card: the state, its dates, the exemption and the latest history. */
    async get(deviceId: string): Promise<Licence> {
      const row = await deviceOf(deviceId);
      const [exemption] = await db
        .select()
        .from(licenceExemptions)
        .where(eq(licenceExemptions.deviceId, deviceId))
        .limit(1);
      const events = await db
        .select()
        .from(licenceEvents)
        .where(eq(licenceEvents.deviceId, deviceId))
        .orderBy(desc(licenceEvents.at), desc(licenceEvents.id))
        .limit(historyShown);
      return {
        deviceId,
        state: row.state,
        locked: licenceLocks(row.state, config.enforcement),
        enforcement: config.enforcement,
        paidThrough: iso(row.paidThrough),
        graceUntil: iso(row.graceUntil),
        version: row.version,
        since: iso(row.since),
        exemption:
          exemption && exemption.until > now()
            ? {
                kind: exemption.kind,
                reason: exemption.reason,
                until: exemption.until.toISOString(),
                by: exemption.createdByEmail,
                at: exemption.createdAt.toISOString(),
              }
            : null,
        events: events.map((e): LicenceEvent => ({
          _id: e.id,
          at: e.at.toISOString(),
          fromState: e.fromState as LicenceState | null,
          toState: e.toState as LicenceState,
          cause: e.cause,
          actor: e.actorEmail,
          reason: e.reason,
          paidThrough: iso(e.paidThrough),
          graceUntil: iso(e.graceUntil),
        })),
      };
    },

    /** An admin's override until the end of a day, with a reason (step-up on the route). */
    async exempt(deviceId: string, body: ExemptionBody, actor: HistoryActor) {
      await deviceOf(deviceId);
      const until = endOfDay(body.until);
      const untilError = (message: string) =>
        new BadRequestError(message, { errors: [{ path: 'until', message }] });
      if (until <= now()) throw untilError(licenceMessages.untilPast);
      if (until.getTime() > now().getTime() + 2 * 366 * 86_400_000)
        throw untilError(licenceMessages.untilTooFar);
      const values = {
        kind: body.kind,
        reason: body.reason,
        until,
        createdBy: actor.userId,
        createdByEmail: actor.email,
        createdAt: now(),
      };
      // The machine's history keeps the exemption's old and new kind, reason and end (decision 081).
      await withActor(db, { ...actor, reason: body.reason }, (tx) =>
        tx
          .insert(licenceExemptions)
          .values({ deviceId, ...values })
          .onConflictDoUpdate({ target: licenceExemptions.deviceId, set: values }),
      );
      await recompute(
        { deviceIds: [deviceId] },
        {
          cause: 'admin',
          actorId: actor.userId,
          actorEmail: actor.email,
          reason: `exempt (${body.kind}): ${body.reason}`,
        },
      );
    },

    /** Ends an exemption before its date; the machine's licence follows its subscriptions again. */
    async endExemption(deviceId: string, reason: string, actor: HistoryActor) {
      await deviceOf(deviceId);
      const ended = await withActor(db, { ...actor, reason }, (tx) =>
        tx
          .delete(licenceExemptions)
          .where(and(eq(licenceExemptions.deviceId, deviceId)))
          .returning({ deviceId: licenceExemptions.deviceId }),
      );
      if (!ended.length) throw new ConflictError(licenceMessages.noExemption);
      await recompute(
        { deviceIds: [deviceId] },
        {
          cause: 'admin',
          actorId: actor.userId,
          actorEmail: actor.email,
          reason: `exemption ended: ${reason}`,
        },
      );
    },
  };
}
export type Licences = ReturnType<typeof createLicences>;
