import { z } from 'zod';

/**
 * One value a list's facet (a filter select) offers, with how many rows have it, most first. The
 * device list's and Treatment Records' facets answer these.
 */
export const facetValueSchema = z.object({ value: z.string(), label: z.string(), count: z.number().int() });
export type FacetValue = z.infer<typeof facetValueSchema>;
