import { useState } from 'react';
import type { ColorMode } from '@app/contract/preferences';
import { DisclosureDropdown } from '#web/components/disclosure-dropdown.tsx';
import { applyColorMode, cachedColorMode } from '#web/lib/color-mode.ts';

const themes: Array<{ mode: ColorMode; label: string }> = [
  { mode: 'light', label: 'Light' },
  { mode: 'dark', label: 'Dark' },
  { mode: 'system', label: 'Use system setting' },
];

/**
 * The portal's user menu (a disclosure, not a menu: a theme choice and a button): the colour mode,
 * kept in this browser (a clinic user has no console preferences), and Sign out.
 */
export function ClinicUserMenu({
  name,
  onLogout,
  loggingOut,
}: {
  name: string;
  onLogout: () => void;
  loggingOut: boolean;
}) {
  const [mode, setMode] = useState<ColorMode>(cachedColorMode);
  const choose = (next: ColorMode) => {
    setMode(next);
    applyColorMode(next);
  };
  return (
    <DisclosureDropdown button={name} buttonClassName="btn btn-light" className="clinic-user-menu">
      {() => (
        <div className="p-3" style={{ minWidth: '14rem' }}>
          <fieldset className="mb-3">
            <legend className="form-label small fw-semibold mb-1">Theme</legend>
            {themes.map((theme) => (
              <div className="form-check" key={theme.mode}>
                <input
                  className="form-check-input"
                  type="radio"
                  name="clinic-theme"
                  id={`clinic-theme-${theme.mode}`}
                  checked={mode === theme.mode}
                  onChange={() => choose(theme.mode)}
                />
                <label className="form-check-label" htmlFor={`clinic-theme-${theme.mode}`}>
                  {theme.label}
                </label>
              </div>
            ))}
          </fieldset>
          <button
            type="button"
            className="btn btn-outline-danger w-100"
            onClick={onLogout}
            disabled={loggingOut}
          >
            Sign out
          </button>
        </div>
      )}
    </DisclosureDropdown>
  );
}
