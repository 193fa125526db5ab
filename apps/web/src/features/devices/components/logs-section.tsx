import { SectionCard } from '#web/components/details-card.tsx';
import { LogsTabs, type LogsTabsProps } from '#web/components/logs-tabs.tsx';
import { useCan } from '#web/lib/use-session.ts';

/** A record's logs in their card, for an admin whose role carries logs.view; nothing otherwise (decision 047). */
export function LogsSection({ title, ...filter }: LogsTabsProps & { title: string }) {
  return useCan('logs.view') ? (
    <SectionCard title={title}>
      <LogsTabs {...filter} />
    </SectionCard>
  ) : null;
}
