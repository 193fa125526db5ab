import { breakGlassTexts } from '@app/contract/break-glass-texts';
import { CountBell } from '#web/components/count-bell.tsx';
import { EmergencyIcon } from '#web/components/icons.tsx';
import { breakGlassCountQueryOptions } from '../api/get-break-glass-count.ts';
import { breakGlassRoute } from '../break-glass-screens.ts';
import { useCan } from '#web/lib/use-session.ts';

/**
 * The top bar's second bell, beside the alarms' (decision 082): how many emergency accesses await
 * sign-off. Shown to security reviewers only.
 */
export function BreakGlassBell() {
  return (
    <CountBell
      may={useCan('security.review')}
      count={breakGlassCountQueryOptions}
      to={breakGlassRoute.href()}
      title={breakGlassTexts.bellTitle}
      label={breakGlassTexts.bell}
      icon={<EmergencyIcon size={20} />}
      className="break-glass-bell"
    />
  );
}
