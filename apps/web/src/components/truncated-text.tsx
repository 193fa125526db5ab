import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useBubble } from './use-bubble.ts';

type Place = { top: number; left: number };

/**
 * A table cell's long text on one line, cut with an ellipsis at `maxWidth`, so a list fits a 1280 px
 * window. Only when the text is cut does it become a tab stop, and then hovering or focusing it shows
 * the whole text in a bubble (WCAG 1.4.13: Escape hides it, the pointer may move onto it). The
 * bubble is placed on the screen, not in the cell, so the table's scroll box never clips it; it hides
 * when the page scrolls. A screen reader reads the whole text anyway: the cut is only drawn.
 */
export function TruncatedText({ text, maxWidth = '16em' }: { text: string; maxWidth?: string }) {
  const ref = useRef<HTMLSpanElement>(null);
  const [cut, setCut] = useState(false);
  const [place, handlers, hide] = useBubble<Place>(() => {
    const rect = ref.current?.getBoundingClientRect();
    return cut && rect ? { top: rect.bottom, left: rect.left } : null;
  });

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setCut(element.scrollWidth > element.clientWidth + 1);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [text]);

  useEffect(() => {
    if (!place) return;
    window.addEventListener('scroll', hide, true);
    window.addEventListener('resize', hide);
    return () => {
      window.removeEventListener('scroll', hide, true);
      window.removeEventListener('resize', hide);
    };
  }, [place, hide]);

  return (
    <span className="truncated-text-anchor" {...handlers}>
      <span ref={ref} className="truncated-text" style={{ maxWidth }} tabIndex={cut ? 0 : undefined}>
        {text}
      </span>
      {place ? (
        // The same words as the cell's, which a screen reader has already read: drawn only.
        <span
          aria-hidden="true"
          className="tooltip-bubble truncated-text-bubble"
          style={{ top: place.top, left: place.left }}
        >
          {text}
        </span>
      ) : null}
    </span>
  );
}
