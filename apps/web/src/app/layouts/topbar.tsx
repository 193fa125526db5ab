import { useState } from 'react';
import defaultAvatar from '#web/assets/default-avatar.svg';
import { MenuIcon } from '#web/components/icons.tsx';
import { AlarmBell } from '#web/features/alarms/components/alarm-bell.tsx';
import { BreakGlassBell } from '#web/features/break-glass/components/break-glass-bell.tsx';
import { ProfileMenu } from './profile-menu.tsx';

export type TopbarProps = {
  sidebarOpen: boolean;
  onToggleSidebar: () => void;
  name: string;
  avatarUrl?: string | null;
  onLogout: () => void;
  loggingOut?: boolean;
};

export function Topbar({ sidebarOpen, onToggleSidebar, name, avatarUrl, onLogout, loggingOut }: TopbarProps) {
  // A broken image URL falls back to the shipped default.
  const [failed, setFailed] = useState<string | null>(null);
  const src = avatarUrl && avatarUrl !== failed ? avatarUrl : defaultAvatar;
  return (
    <header className="topbar">
      <button
        type="button"
        className="btn btn-light topbar-toggle"
        aria-label="Toggle sidebar"
        aria-expanded={sidebarOpen}
        aria-controls="admin-sidebar"
        onClick={onToggleSidebar}
      >
        <MenuIcon size={20} />
      </button>
      <div className="d-flex align-items-center gap-2 ms-auto">
        <AlarmBell />
        <BreakGlassBell />
        <img
          src={src}
          alt={`Profile picture of ${name}`}
          className="avatar"
          width={36}
          height={36}
          onError={() => setFailed(avatarUrl ?? null)}
        />
        <ProfileMenu name={name} onLogout={onLogout} loggingOut={loggingOut} />
      </div>
    </header>
  );
}
