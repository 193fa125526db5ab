import { useId, useState, type ReactNode } from 'react';
import { usePhone } from '#web/lib/use-media-query.ts';

/**
 * A list's filters, folded behind a Filters button on a phone (issue 35 item 7), where a row of
 * selects would push the list below the first screen; shown as they are on a wider screen. The
 * button says how many filters are set, so a folded filter is never forgotten.
 */
export function FiltersFold({ active, children }: { active: number; children: ReactNode }) {
  const phone = usePhone();
  const [open, setOpen] = useState(false);
  const panel = useId();
  if (!phone) return <>{children}</>;
  return (
    <>
      <button
        type="button"
        className="btn btn-outline-secondary btn-sm"
        aria-expanded={open}
        aria-controls={panel}
        onClick={() => setOpen(!open)}
      >
        Filters{active > 0 ? ` (${active} set)` : ''}
      </button>
      <div id={panel} hidden={!open} className="mt-2">
        {children}
      </div>
    </>
  );
}
