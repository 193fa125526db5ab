import { safetyNoticesScreenPath } from '@app/contract/safety-notices-texts';
import { fixed } from '#web/lib/paths.ts';

/** Only this feature links to its screens, so their routes are named here (decision 067). */
export const safetyNoticesRoute = fixed<{ page?: number; limit?: number }>(safetyNoticesScreenPath);
export const safetyNoticeRoute = {
  path: `${safetyNoticesScreenPath}/:id`,
  href: ({ id }: { id: string }) => `${safetyNoticesScreenPath}/${encodeURIComponent(id)}`,
};
