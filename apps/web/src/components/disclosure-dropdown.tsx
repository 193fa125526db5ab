import { Suspense, useCallback, useId, useRef, useState, type ReactNode } from 'react';
import { useDismiss } from '../lib/use-dismiss.ts';

/**
 * A button that shows and hides a panel under it (the disclosure pattern: aria-expanded and
 * aria-controls; not a menu), closed by a click or focus outside and by Escape, which gives focus
 * back to the button. The column chooser and the saved views use it.
 *
 * The panel is rendered only while open, so what it shows (and any query it runs) costs nothing on a
 * list's first screen: a panel may be a lazy component, loaded when the pointer or focus reaches the
 * button (`onIntent`) and shown with a short "Loading…" status until it arrives.
 */
export function DisclosureDropdown({
  button: content,
  buttonClassName = 'btn btn-outline-secondary',
  className = '',
  onIntent,
  children,
}: {
  button: ReactNode;
  buttonClassName?: string;
  className?: string;
  /** Runs when the pointer reaches the button or it gets focus: start loading a lazy panel. */
  onIntent?: () => void;
  /** The panel; `close` hides it (after choosing something in it). */
  children: (close: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  // A choice made in the panel closes it and gives focus back to the button: the control chosen is
  // gone with the panel, and a dialog the choice opens returns focus to where it was when it opened.
  // (Found through the DOM, not the refs: the panel is handed `close` while it renders.)
  const close = useCallback(() => {
    const panel = document.getElementById(panelId);
    if (panel?.contains(document.activeElement))
      (panel.previousElementSibling as HTMLElement | null)?.focus();
    setOpen(false);
  }, [panelId]);
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
        onPointerEnter={onIntent}
        onFocus={onIntent}
      >
        {content}
      </button>
      <div
        id={panelId}
        className={`dropdown-menu dropdown-menu-end shadow-sm${open ? ' show' : ''}`}
        hidden={!open}
      >
        {open ? (
          <Suspense
            fallback={
              <p className="text-body-secondary small mb-0 px-3 py-2" role="status">
                Loading…
              </p>
            }
          >
            {children(close)}
          </Suspense>
        ) : null}
      </div>
    </div>
  );
}
