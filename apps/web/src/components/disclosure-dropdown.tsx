import { useCallback, useId, useRef, useState, type ReactNode } from 'react';
import { useDismiss } from '../lib/use-dismiss.ts';

/**
 * A button that shows and hides a panel under it (the disclosure pattern: aria-expanded and
 * aria-controls; not a menu), closed by a click or focus outside and by Escape, which gives focus
 * back to the button. The column chooser and the saved views use it.
 */
export function DisclosureDropdown({
  button: content,
  buttonClassName = 'btn btn-outline-secondary',
  className = '',
  children,
}: {
  button: ReactNode;
  buttonClassName?: string;
  className?: string;
  /** The panel; `close` hides it (after choosing something in it). */
  children: (close: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const close = useCallback(() => setOpen(false), []);
  useDismiss(container, open, close, button);
  return (
    <div className={`dropdown ${className}`.trim()} ref={container}>
      <button
        ref={button}
        type="button"
        className={buttonClassName}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
      >
        {content}
      </button>
      <div
        id={panelId}
        className={`dropdown-menu dropdown-menu-end shadow-sm${open ? ' show' : ''}`}
        hidden={!open}
      >
        {children(close)}
      </div>
    </div>
  );
}
