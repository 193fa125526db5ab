import { useNavigate } from 'react-router';
import { ArrowLeftIcon } from './icons.tsx';

export type BackButtonProps = { to?: string; state?: unknown; label?: string; className?: string };

/** Goes to `to` when given (detail pages name their list), else one step back in history. */
export function BackButton({ to, state, label = 'Back', className = '' }: BackButtonProps) {
  const navigate = useNavigate();
  return (
    <button
      type="button"
      className={`btn btn-outline-secondary btn-sm d-inline-flex align-items-center gap-1 ${className}`}
      onClick={() => (to ? navigate(to, { state }) : navigate(-1))}
    >
      <ArrowLeftIcon size={16} />
      {label}
    </button>
  );
}
