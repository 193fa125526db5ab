import { useId } from 'react';
import { clinicPortalTexts as texts } from '@app/contract/clinic-portal-texts';

export type ChartRow = { key: string; label: string; count: number; minutes: number };

const width = 600;
const height = 160;

/**
 * Treatments as inline SVG bars (no chart library), one per row, as the dashboard draws its days.
 * The drawing is for sighted readers only; the same figures follow in a table everyone can read,
 * with the minutes beside the counts.
 */
export function FiguresChart({
  title,
  rows,
  rowHeader,
}: {
  title: string;
  rows: readonly ChartRow[];
  rowHeader: string;
}) {
  const captionId = useId();
  const max = Math.max(1, ...rows.map((r) => r.count));
  const step = width / Math.max(1, rows.length);
  return (
    <figure className="mb-0" aria-labelledby={captionId}>
      <figcaption id={captionId} className="h6">
        {title}
      </figcaption>
      {rows.length > 1 ? (
        <svg
          viewBox={`0 0 ${width} ${height}`}
          className="w-100 text-primary mb-2"
          style={{ maxHeight: 180 }}
          aria-hidden="true"
          focusable="false"
          preserveAspectRatio="none"
        >
          {rows.map((r, i) => {
            const h = Math.round((r.count / max) * (height - 4));
            return (
              <rect
                key={r.key}
                x={i * step + 1}
                y={height - h}
                width={Math.max(1, step - 2)}
                height={h}
                fill="currentColor"
              >
                <title>{`${r.label}: ${r.count}`}</title>
              </rect>
            );
          })}
        </svg>
      ) : null}
      <div
        className="table-responsive"
        style={{ maxHeight: '20rem' }}
        tabIndex={0}
        role="region"
        aria-label={title}
      >
        <table className="table table-sm mb-0">
          <caption className="visually-hidden">{title}</caption>
          <thead>
            <tr>
              <th scope="col">{rowHeader}</th>
              <th scope="col" className="text-end">
                {texts.treatments}
              </th>
              <th scope="col" className="text-end">
                {texts.minutes}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key}>
                <th scope="row" className="fw-normal">
                  {r.label}
                </th>
                <td className="text-end">{r.count.toLocaleString('en-US')}</td>
                <td className="text-end">{r.minutes.toLocaleString('en-US')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
