import { z } from 'zod';
import { maxCommandWaitSeconds } from '@app/contract/commands';

/** The machines' settings (docs/device-api.md): when one reads Offline, its pace and its limits. */
export const devicesEnv = {
  DEVICE_OFFLINE_MINUTES: z.coerce.number().min(0.1, 'must be at least 0.1').max(10_080).default(15),
  DEVICE_HEARTBEAT_SECONDS: z.coerce.number().int().min(5, 'must be at least 5').max(86_400).default(300),
  DEVICE_RATE_PER_MINUTE: z.coerce.number().int().min(1, 'must be at least 1').max(1_000_000).default(600),
  // Under the load balancer's idle timeout, or it cuts a long-poll the server still holds.
  DEVICE_LONG_POLL_SECONDS: z.coerce
    .number()
    .int()
    .min(0, 'must be at least 0')
    .max(maxCommandWaitSeconds, `must be at most ${maxCommandWaitSeconds}`)
    .default(maxCommandWaitSeconds),
};
type DevicesEnv = z.infer<z.ZodObject<typeof devicesEnv>>;

export type DevicesConfig = Readonly<{
  /** A machine quiet for longer than this is shown Offline. */
  deviceOfflineMinutes: number;
  /** How often the machines' app is told to send a heartbeat. */
  deviceHeartbeatSeconds: number;
  /** Calls one machine may make per minute before it gets 429 (one broken app must not starve the rest). */
  deviceRatePerMinute: number;
  /** A long-poll for commands answers after at most this long, whatever `wait` the machine asked. */
  deviceLongPollSeconds: number;
}>;

export const devicesConfig = (e: DevicesEnv): DevicesConfig => ({
  deviceOfflineMinutes: e.DEVICE_OFFLINE_MINUTES,
  deviceHeartbeatSeconds: e.DEVICE_HEARTBEAT_SECONDS,
  deviceRatePerMinute: e.DEVICE_RATE_PER_MINUTE,
  deviceLongPollSeconds: e.DEVICE_LONG_POLL_SECONDS,
});
