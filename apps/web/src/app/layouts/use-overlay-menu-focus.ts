import { useEffect } from 'react';

const visible = (el: HTMLElement) => el.offsetParent !== null || el.getClientRects().length > 0;

/**
 * While the menu overlays the page (a phone's open sidebar, over a backdrop that hides the rest),
 * the keyboard stays with it: focus moves into the menu (onto the current page's link when shown),
 * Escape closes it and puts focus back on the toggle, and focus leaving the menu closes it, so
 * nothing focused is ever hidden behind it (WCAG 2.2 "focus not obscured").
 */
export function useOverlayMenuFocus({
  overlaid,
  menuId,
  close,
}: {
  overlaid: boolean;
  menuId: string;
  close: () => void;
}) {
  useEffect(() => {
    if (!overlaid) return;
    const menu = document.getElementById(menuId);
    if (!menu) return;
    const toggle = document.querySelector<HTMLElement>(`[aria-controls="${menuId}"]`);
    const links = [...menu.querySelectorAll<HTMLElement>('a[href], button')].filter(visible);
    (links.find((el) => el.getAttribute('aria-current') === 'page') ?? links[0])?.focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      close();
      toggle?.focus();
    };
    const onFocusIn = (event: FocusEvent) => {
      if (!menu.contains(event.target as Node)) close();
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('focusin', onFocusIn);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('focusin', onFocusIn);
    };
  }, [overlaid, menuId, close]);
}
