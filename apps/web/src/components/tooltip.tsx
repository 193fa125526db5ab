import { useId, type ReactElement, type ReactNode } from 'react';
import { useBubble } from './use-bubble.ts';

/**
 * A short description shown while the pointer is over its trigger or the trigger has focus, and
 * named by it (aria-describedby), so a screen reader says it too. Escape hides it without moving
 * focus; the pointer may move onto it (WCAG 1.4.13: dismissible, hoverable, persistent).
 */
export function Tooltip({
  text,
  className = '',
  children,
}: {
  text: string;
  /** Classes for the anchor around the trigger (inline-block by default). */
  className?: string;
  /** Renders the trigger, given the id of the description to name with aria-describedby. */
  children: (describedBy: string) => ReactElement;
}): ReactNode {
  const id = useId();
  const [shown, handlers] = useBubble(() => true);
  return (
    <span className={`tooltip-anchor ${className}`} {...handlers}>
      {children(id)}
      <span id={id} role="tooltip" className="tooltip-bubble" hidden={!shown}>
        {text}
      </span>
    </span>
  );
}
