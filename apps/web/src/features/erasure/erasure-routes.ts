import { erasureScreenPath, type ErasureState } from '@app/contract/erasure-texts';
import { fixed } from '#web/lib/paths.ts';

/** Only the sidebar and this feature link to the list; the patient page links to a request by its path (contract). */
export const erasureRoute = fixed<{ state?: ErasureState; page?: number; limit?: number }>(erasureScreenPath);
export const erasureRequestRoute = { path: `${erasureScreenPath}/:id` };
