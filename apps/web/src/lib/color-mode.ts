import type { ColorMode } from '@app/contract/preferences';

/*
 * The console's colour mode on <html data-bs-theme> (decision 054). The server keeps the admin's
 * choice; this browser remembers the last one applied so the next load starts in it (no flash of
 * the wrong theme before the preferences answer). Small on purpose: the entry imports it.
 */
const storageKey = 'colorMode';
export const darkSchemeQuery = '(prefers-color-scheme: dark)';
export type Theme = 'light' | 'dark';

const systemIsDark = () =>
  typeof window.matchMedia === 'function' && window.matchMedia(darkSchemeQuery).matches;

export function themeOf(mode: ColorMode, systemDark = systemIsDark()): Theme {
  return mode === 'system' ? (systemDark ? 'dark' : 'light') : mode;
}

export function cachedColorMode(): ColorMode {
  try {
    const mode = localStorage.getItem(storageKey);
    return mode === 'light' || mode === 'dark' ? mode : 'system';
  } catch {
    return 'system';
  }
}

export function applyColorMode(mode: ColorMode, systemDark?: boolean) {
  document.documentElement.setAttribute('data-bs-theme', themeOf(mode, systemDark));
  try {
    localStorage.setItem(storageKey, mode);
  } catch {
    // Storage refused (private mode, quota): the server's value still applies after the read.
  }
}

/** The theme on <html> now, for what draws outside Bootstrap (the toasts). */
export const appliedTheme = (): Theme =>
  document.documentElement.getAttribute('data-bs-theme') === 'dark' ? 'dark' : 'light';

/** Calls back whenever <html data-bs-theme> changes, whoever changed it. */
export function subscribeTheme(listener: () => void) {
  const observer = new MutationObserver(listener);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-bs-theme'] });
  return () => observer.disconnect();
}
