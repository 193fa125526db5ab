import {
  useCallback,
  useState,
  type FocusEventHandler,
  type KeyboardEventHandler,
  type MouseEventHandler,
} from 'react';

type BubbleHandlers = {
  onMouseEnter: MouseEventHandler;
  onMouseLeave: MouseEventHandler;
  onFocus: FocusEventHandler;
  onBlur: FocusEventHandler;
  onKeyDown: KeyboardEventHandler;
};

/**
 * A bubble shown while the pointer is over its anchor or focus is inside it, and hidden by Escape
 * without moving focus (WCAG 1.4.13: dismissible, hoverable, persistent): the tooltip's and the cut
 * text's. `open` says what to show when asked (null: nothing, e.g. a text that is not cut). Spread
 * the handlers on the anchor.
 */
export function useBubble<T>(open: () => T | null): [T | null, BubbleHandlers, () => void] {
  const [shown, setShown] = useState<T | null>(null);
  const show = () => setShown(open());
  // Stable: an effect that hides the bubble on scroll depends on it.
  const hide = useCallback(() => setShown(null), []);
  return [
    shown,
    {
      onMouseEnter: show,
      onMouseLeave: hide,
      onFocus: show,
      onBlur: hide,
      onKeyDown: (event) => {
        if (event.key === 'Escape' && shown !== null) {
          event.stopPropagation();
          hide();
        }
      },
    },
    hide,
  ];
}
