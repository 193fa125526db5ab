import { Suspense, useState, type ReactNode } from 'react';

/**
 * For a dialog that loads lazily (a `lazy` component): renders nothing until it is first shown, then
 * keeps it mounted, so from then on it behaves as an always-mounted dialog (closing, focus given
 * back, state kept between openings). The caller starts loading it on intent, before it is shown.
 */
export function MountWhenShown({ show, children }: { show: boolean; children: ReactNode }) {
  const [shown, setShown] = useState(show);
  if (show && !shown) setShown(true);
  return shown ? <Suspense fallback={null}>{children}</Suspense> : null;
}
