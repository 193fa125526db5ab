import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { subscriptionMessages, type PaymentProviderName } from '@app/contract/subscriptions';
import type { Db } from '#api/db/client.ts';
import { devices } from '#api/db/schema/devices.ts';
import { AppError, BadRequestError } from '#api/lib/errors.ts';

const providerUnavailable = 'The payment provider is not available right now. Please try again.';

/**
 * Calls the payment provider: an outage is not the caller's fault and not a bug, so it is logged and
 * answered as a 502 with a plain message.
 */
export const providerCall =
  (provider: { name: PaymentProviderName }, log: Pick<FastifyBaseLogger, 'error'>) =>
  async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (error) {
      log.error(
        { err: error instanceof Error ? error.message : String(error), provider: provider.name },
        `payment provider: ${what} failed`,
      );
      throw new AppError(502, providerUnavailable);
    }
  };

/** The machine a serial number names (any case), or a 400 naming the field (decision 068). */
export async function machineOfSerial(db: Db, serial: string): Promise<string> {
  const [device] = await db
    .select({ id: devices.id })
    .from(devices)
    .where(sql`lower(${devices.serialNumber}) = lower(${serial})`)
    .limit(1);
  if (!device)
    throw new BadRequestError(subscriptionMessages.machineNotFound, {
      errors: [{ path: 'machineSerialNumber', message: subscriptionMessages.machineNotFound }],
    });
  return device.id;
}
