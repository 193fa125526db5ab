import { z } from 'zod';
import { deviceFilterShape } from './device-filters.ts';
import { envelope } from './envelope.ts';
import { strictObject } from './fields.ts';

export const deviceMapMessages = {
  boundsIncomplete: 'west, south, east and north must be sent together',
  boundsOrder: 'south must not be above north, nor west east of east',
} as const;

const coordinate = (name: string, limit: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .min(-limit, `${name} must be between -${limit} and ${limit}`)
    .max(limit, `${name} must be between -${limit} and ${limit}`)
    .optional();

/** The most zoomed-in view the server still groups machines into clusters at; past it, each machine. */
export const mapClusterMaxZoom = 15;

/**
 * The fleet map (ours, issue 16): the device list's filters, the part of the world
 * in view and the zoom. Without bounds the answer is the whole fleet that matches, plus its extent
 * so the map can open on it.
 */
export const deviceMapQuerySchema = strictObject({
  ...deviceFilterShape,
  west: coordinate('west', 180),
  south: coordinate('south', 90),
  east: coordinate('east', 180),
  north: coordinate('north', 90),
  zoom: z.coerce
    .number({ error: 'zoom must be a number' })
    .int('zoom must be a whole number')
    .min(0, 'zoom must be between 0 and 22')
    .max(22, 'zoom must be between 0 and 22')
    .default(2),
})
  .refine(
    (q) =>
      [q.west, q.south, q.east, q.north].every((v) => v === undefined) ||
      [q.west, q.south, q.east, q.north].every((v) => v !== undefined),
    { error: deviceMapMessages.boundsIncomplete, path: ['west'] },
  )
  .refine((q) => q.west === undefined || (q.south! <= q.north! && q.west <= q.east!), {
    error: deviceMapMessages.boundsOrder,
    path: ['south'],
  });
export type DeviceMapQuery = z.input<typeof deviceMapQuerySchema>;
/** The query as the server reads it (zoom defaulted). */
export type DeviceMapParams = z.output<typeof deviceMapQuerySchema>;

/**
 * A place on the map: one machine (`device` set, count 1) or a cluster of machines near each other,
 * at their mean position, with how many of them are online, offline and never seen.
 */
export const mapPointSchema = z.object({
  latitude: z.number(),
  longitude: z.number(),
  count: z.number().int(),
  online: z.number().int(),
  offline: z.number().int(),
  never: z.number().int(),
  device: z.object({ _id: z.string(), machineNumber: z.string() }).nullable(),
});
export type MapPoint = z.infer<typeof mapPointSchema>;

export const mapBoundsSchema = z.object({
  south: z.number(),
  west: z.number(),
  north: z.number(),
  east: z.number(),
});
export type MapBounds = z.infer<typeof mapBoundsSchema>;

export const deviceMapSchema = z.object({
  /** Machines matching the filters, wherever they are (asked without bounds; null with them). */
  total: z.number().int().nullable(),
  /** Of those, the machines in view (all of them without bounds). */
  inView: z.number().int(),
  /** The matching machines' extent (asked without bounds; null with them, or when none match). */
  extent: mapBoundsSchema.nullable(),
  points: z.array(mapPointSchema),
  /** Where the map's tiles come from (MAP_TILE_URL); null: markers on a plain background. */
  tiles: z.object({ url: z.string(), attribution: z.string() }).nullable(),
});
export type DeviceMap = z.infer<typeof deviceMapSchema>;

export const deviceMapResponseSchema = envelope(deviceMapSchema);
