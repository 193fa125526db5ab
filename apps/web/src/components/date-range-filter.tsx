import { useId } from 'react';

type Props = {
  from: string;
  to: string;
  onChange: (range: { from: string; to: string }) => void;
  /** What the days are read in, shown beside the fields (the server counts UTC days). */
  note?: string;
};

/**
 * A list's From and To days (YYYY-MM-DD, both included), beside its search. A reversed range is
 * named under the fields rather than silently emptying the list.
 */
export function DateRangeFilter({ from, to, onChange, note = 'UTC' }: Props) {
  const id = useId();
  const reversed = Boolean(from && to && from > to);
  return (
    <div
      className="d-flex flex-wrap align-items-center gap-2"
      role="group"
      aria-label={`Date range (${note})`}
    >
      <label htmlFor={`${id}-from`} className="form-label mb-0">
        From
      </label>
      <input
        id={`${id}-from`}
        type="date"
        className="form-control form-control-sm w-auto"
        value={from}
        max={to || undefined}
        aria-invalid={reversed || undefined}
        aria-describedby={reversed ? `${id}-error` : undefined}
        onChange={(event) => onChange({ from: event.target.value, to })}
      />
      <label htmlFor={`${id}-to`} className="form-label mb-0">
        To
      </label>
      <input
        id={`${id}-to`}
        type="date"
        className="form-control form-control-sm w-auto"
        value={to}
        min={from || undefined}
        aria-invalid={reversed || undefined}
        aria-describedby={reversed ? `${id}-error` : undefined}
        onChange={(event) => onChange({ from, to: event.target.value })}
      />
      <span className="text-body-secondary small">{note}</span>
      {reversed ? (
        <span id={`${id}-error`} className="text-danger small w-100" role="alert">
          From must not be after To
        </span>
      ) : null}
    </div>
  );
}
