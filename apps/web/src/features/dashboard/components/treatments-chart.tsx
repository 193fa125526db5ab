import { dashboardTexts, type TreatmentDay } from '@app/contract/dashboard';

const width = 300;
const height = 80;

/**
 * Treatments per day as inline SVG bars (no chart library: 30 rectangles). The SVG is decoration for
 * sighted readers; the same figures are in a table screen readers read instead.
 */
export function TreatmentsChart({ days }: { days: readonly TreatmentDay[] }) {
  const max = Math.max(1, ...days.map((d) => d.count));
  const step = width / Math.max(1, days.length);
  return (
    <figure className="mb-0 mt-3">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="w-100 text-primary"
        style={{ maxHeight: 120 }}
        aria-hidden="true"
        focusable="false"
      >
        {days.map((d, i) => {
          const h = Math.round((d.count / max) * (height - 4));
          return (
            <rect
              key={d.day}
              x={i * step + 1}
              y={height - h}
              width={Math.max(1, step - 2)}
              height={h}
              fill="currentColor"
            />
          );
        })}
      </svg>
      <figcaption className="small text-body-secondary">{dashboardTexts.chartTitle}</figcaption>
      {/* The hidden copy is a wrapper, not the table: a table is never narrower than its content, so a
          visually hidden table still widened the page at 320 px (47 px of sideways scroll). */}
      <div className="visually-hidden">
        <table>
          <caption>{dashboardTexts.chartTitle}</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">{dashboardTexts.treatments}</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.day}>
                <th scope="row">{d.day}</th>
                <td>{d.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
