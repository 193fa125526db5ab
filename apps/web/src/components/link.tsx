import type { AnchorHTMLAttributes, MouseEvent, Ref } from 'react';
import { useHref, useLinkClickHandler } from 'react-router';

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  /** A path inside the console, from lib/paths.ts. */
  to: string;
  /** History state for the screen it opens (the device id, for Device Details' breadcrumbs). */
  state?: unknown;
  ref?: Ref<HTMLAnchorElement>;
};

/**
 * An <a> that navigates inside the console without a page load, as react-router's <Link> does for an
 * internal path: same href, same click handling (a modified or middle click, or another target, is
 * left to the browser). react-router's <Link> also carries prefetching and framework-mode code
 * (prefetch links, masks, external URLs) that the console never uses and that cannot be shaken out
 * of it; this one is the part the console uses, on every screen including sign-in.
 */
export function Link({ to, state, target, onClick, ...rest }: LinkProps) {
  const href = useHref(to);
  const navigate = useLinkClickHandler<HTMLAnchorElement>(to, { state, target });
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (!event.defaultPrevented) navigate(event);
  };
  return <a {...rest} href={href} target={target} onClick={handleClick} />;
}
