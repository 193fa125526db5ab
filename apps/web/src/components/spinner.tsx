export type SpinnerProps = { label?: string; small?: boolean; className?: string };

/** A Bootstrap spinner announced as a status ('Loading...'). */
export function Spinner({ label = 'Loading...', small = false, className = '' }: SpinnerProps) {
  return (
    <div role="status" className={`d-inline-flex align-items-center gap-2 ${className}`}>
      <span
        className={`spinner-border text-primary ${small ? 'spinner-border-sm' : ''}`}
        aria-hidden="true"
      />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
