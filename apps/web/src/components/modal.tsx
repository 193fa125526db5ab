import {
  useEffect,
  useEffectEvent,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';
import { createPortal } from 'react-dom';
import { outsideModalsAttribute } from '../lib/outside-modals.ts';

export type ModalProps = {
  show: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  footer?: ReactNode;
  size?: 'sm' | 'lg' | 'xl';
  /** Bootstrap's static backdrop: a click outside or Escape does not close (forms that must be saved or cancelled). */
  staticBackdrop?: boolean;
  /** What gets focus on open; else the first field or button inside. */
  initialFocus?: RefObject<HTMLElement | null>;
};

const focusable =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

const inBody = focusable
  .split(', ')
  .map((selector) => `.modal-body ${selector}`)
  .join(', ');

// Open modals, innermost last: only the top one answers Escape and keeps focus.
const stack: string[] = [];

/** An accessible Bootstrap dialog: labelled by its title, focus kept inside, focus returned to the opener. */
export function Modal({
  show,
  onClose,
  title,
  children,
  footer,
  size,
  staticBackdrop = false,
  initialFocus,
}: ModalProps) {
  const id = useId();
  const titleId = `${id}-title`;
  const dialog = useRef<HTMLDivElement>(null);
  const [shaking, setShaking] = useState(false);
  const dismiss = useEffectEvent(() => {
    if (staticBackdrop) setShaking(true);
    else onClose();
  });

  // A layout effect: focus moves in the same commit that shows the dialog, so there is no frame
  // in which the dialog is on screen and focus is still behind it (a passive effect left that gap,
  // and a screen reader or a fast key press could land in it).
  useLayoutEffect(() => {
    if (!show) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    stack.push(id);
    document.body.classList.add('modal-open');
    // Everything else in <body> becomes inert (the page, a modal beneath): neither the keyboard nor
    // a screen reader's reading cursor can reach behind the dialog. Each element gets back what it had.
    const madeInert = [...document.body.children].filter(
      (el): el is HTMLElement =>
        el instanceof HTMLElement &&
        !el.contains(dialog.current) &&
        !el.hasAttribute(outsideModalsAttribute) &&
        !el.hasAttribute('inert'),
    );
    for (const el of madeInert) el.setAttribute('inert', '');
    const first =
      initialFocus?.current ??
      dialog.current?.querySelector<HTMLElement>(inBody) ??
      dialog.current?.querySelector<HTMLElement>(focusable);
    (first ?? dialog.current)?.focus();

    const onKey = (event: KeyboardEvent) => {
      if (stack[stack.length - 1] !== id || !dialog.current) return;
      if (event.key === 'Escape') {
        event.preventDefault();
        dismiss();
      } else if (event.key === 'Tab') {
        const list = [...dialog.current.querySelectorAll<HTMLElement>(focusable)].filter(
          (el) => !el.closest('[hidden]'),
        );
        if (list.length === 0) {
          event.preventDefault();
          return;
        }
        const firstItem = list[0]!;
        const lastItem = list[list.length - 1]!;
        const active = document.activeElement;
        if (event.shiftKey && (active === firstItem || !dialog.current.contains(active))) {
          event.preventDefault();
          lastItem.focus();
        } else if (!event.shiftKey && (active === lastItem || !dialog.current.contains(active))) {
          event.preventDefault();
          firstItem.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      stack.splice(stack.indexOf(id), 1);
      if (stack.length === 0) document.body.classList.remove('modal-open');
      // Before focus goes back: an inert opener cannot take it.
      for (const el of madeInert) el.removeAttribute('inert');
      if (opener?.isConnected) opener.focus();
      // The opener is gone (its row was deleted, its panel closed): the page's main content takes
      // focus, where a keyboard user carries on, rather than <body>, which starts them at the top.
      else document.getElementById('main-content')?.focus({ preventScroll: true });
    };
  }, [show, id, initialFocus]);

  useEffect(() => {
    if (!shaking) return;
    const timer = setTimeout(() => setShaking(false), 300);
    return () => clearTimeout(timer);
  }, [shaking]);

  if (!show) return null;

  return createPortal(
    <>
      <div
        className={`modal fade show d-block${shaking ? ' modal-static' : ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        ref={dialog}
        onMouseDown={(event) => {
          if (event.target !== event.currentTarget) return;
          if (staticBackdrop) setShaking(true);
          else onClose();
        }}
      >
        <div
          className={`modal-dialog modal-dialog-centered modal-dialog-scrollable${size ? ` modal-${size}` : ''}`}
        >
          <div className="modal-content">
            <div className="modal-header">
              <h2 className="modal-title fs-5" id={titleId}>
                {title}
              </h2>
              <button type="button" className="btn-close" aria-label="Close" onClick={onClose} />
            </div>
            <div className="modal-body">{children}</div>
            {footer ? <div className="modal-footer">{footer}</div> : null}
          </div>
        </div>
      </div>
      <div className="modal-backdrop fade show" />
    </>,
    document.body,
  );
}
