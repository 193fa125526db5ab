import { getTimeZone } from '#web/lib/session-store.ts';

const parts = (date: Date, timeZone?: string) =>
  new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone })
    .formatToParts(date)
    .reduce<Record<string, string>>((all, part) => ({ ...all, [part.type]: part.value }), {});

/**
 * A date as DD-MM-YYYY in the viewer's time zone, as lib/format.ts's formatDate shows it (docs/product.md §1),
 * without dayjs and its time-zone plugins, which would be a tenth of the customer's page
 * (docs/decisions/028). 'N/A' (lib/format.ts's NA) when the value is not a date.
 */
export function formatStartDate(value: string) {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return 'N/A';
  let p;
  try {
    p = parts(date, getTimeZone());
  } catch {
    // An unknown zone name in an old stored session: the browser's own zone.
    p = parts(date);
  }
  return `${p.day}-${p.month}-${p.year}`;
}
