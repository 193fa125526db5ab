import { useState } from 'react';
import defaultAvatar from '#web/assets/default-avatar.svg';

export type ProfileAvatarProps = { src?: string | null; alt: string; size?: number };

/** A round profile picture; a missing or broken image shows the default one. */
export function ProfileAvatar({ src, alt, size = 96 }: ProfileAvatarProps) {
  const [failed, setFailed] = useState<string | null>(null);
  const shown = src && src !== failed ? src : defaultAvatar;
  return (
    <img
      src={shown}
      alt={alt}
      width={size}
      height={size}
      className="rounded-circle border bg-body-tertiary flex-shrink-0"
      style={{ objectFit: 'cover' }}
      onError={() => setFailed(src ?? null)}
    />
  );
}
