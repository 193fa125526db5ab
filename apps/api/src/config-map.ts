import { z } from 'zod';

/**
 * The fleet map's tiles (decision 052). Without MAP_TILE_URL the map draws its markers on a plain
 * background and the browser loads nothing from elsewhere; with it, the CSP lets images come from
 * the tile host (a `{s}` subdomain placeholder becomes a wildcard).
 */
export const mapEnv = {
  MAP_TILE_URL: z
    .string()
    .trim()
    .max(500, 'must be at most 500 characters')
    .regex(/^https:\/\/[^/?#\s]+\/\S*$/, 'must be an https:// address')
    .refine((v) => ['{z}', '{x}', '{y}'].every((p) => v.includes(p)), 'must contain {z}, {x} and {y}')
    .optional(),
  MAP_TILE_ATTRIBUTION: z.string().trim().max(300, 'must be at most 300 characters').optional(),
};
type MapEnv = z.infer<z.ZodObject<typeof mapEnv>>;

export type MapConfig = Readonly<{
  /** Leaflet's tile address template; undefined: no tiles. */
  tileUrl: string | undefined;
  /** The credit the tile provider asks for, shown in the map's corner. */
  attribution: string;
  /** What the CSP's img-src adds for the tiles. */
  imageSources: readonly string[];
}>;

export const mapConfig = (e: MapEnv): MapConfig => {
  const tileUrl = e.MAP_TILE_URL || undefined;
  // The address was checked to start with https:// and a host; `{s}.` (a subdomain) becomes `*.`.
  const host = tileUrl && /^https:\/\/([^/]+)/.exec(tileUrl)![1]!.replace('{s}.', '*.');
  return {
    tileUrl,
    attribution: e.MAP_TILE_ATTRIBUTION ?? '',
    imageSources: host ? [`https://${host}`] : [],
  };
};
