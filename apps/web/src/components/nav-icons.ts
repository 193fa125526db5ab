import { DeviceIcon } from './base-icons.tsx';
import {
  AccountIcon,
  BellIcon,
  CardIcon,
  ClinicIcon,
  ClockIcon,
  DashboardIcon,
  EditUserIcon,
  EmergencyIcon,
  KeyIcon,
  LogsIcon,
  MailIcon,
  ShieldIcon,
  UploadIcon,
  UserIcon,
  UsersIcon,
} from './icons.tsx';

/*
 * The sidebar's icons, by the name a screen's declaration gives (lib/admin-screens.ts). Declarations
 * name them rather than import them: the router fetches the declarations before the first admin
 * screen, and keeps them small; the icons come with the admin layout, the only importer of this file.
 */
export const navIcons = {
  account: AccountIcon,
  bell: BellIcon,
  card: CardIcon,
  clinic: ClinicIcon,
  clock: ClockIcon,
  dashboard: DashboardIcon,
  device: DeviceIcon,
  'edit-user': EditUserIcon,
  emergency: EmergencyIcon,
  key: KeyIcon,
  logs: LogsIcon,
  mail: MailIcon,
  shield: ShieldIcon,
  upload: UploadIcon,
  user: UserIcon,
  users: UsersIcon,
};

export type NavIconName = keyof typeof navIcons;
