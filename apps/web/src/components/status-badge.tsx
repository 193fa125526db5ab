export type StatusTone = 'success' | 'danger' | 'warning' | 'info' | 'secondary' | 'primary';
export type StatusBadgeProps = { label: string; tone?: StatusTone };

/** A pill for a status label; text-bg-* pairs keep AA contrast in every tone. */
export function StatusBadge({ label, tone = 'secondary' }: StatusBadgeProps) {
  return <span className={`badge rounded-pill text-bg-${tone}`}>{label}</span>;
}
