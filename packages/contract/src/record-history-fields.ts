import { roleTypeLabels } from './auth.ts';
import { rolloutStateLabels } from './app-update-rollouts.ts';
import { updateTypeLabels } from './app-updates.ts';
import { planTypeLabels } from './checkout.ts';
import { deviceUserStatusLabels } from './device-users.ts';
import { deviceStatusLabels } from './devices.ts';
import { exemptionKindLabels } from './licences.ts';
import { languageLabels, settingLabels, type SettingKey } from './machine-settings.ts';
import type { HistoryKind } from './record-history.ts';
import { subscriptionStatusLabels } from './subscriptions.ts';

/*
 * How a History section names each field and shows its values (decision 081): the label, and how a
 * value reads (a status's name, a date-time in the admin's zone, dollars from cents). A field not
 * listed shows its API name and its value as stored.
 */

export type HistoryValueFormat =
  'text' | 'date-time' | 'yes-no' | 'cents' | { labels: Record<string, string> };
export type HistoryField = { label: string; format?: HistoryValueFormat };

const labels = (map: Record<string | number, string>): HistoryValueFormat => ({ labels: map });

const deviceFields: Record<string, HistoryField> = {
  machineNumber: { label: 'Machine Number' },
  serialNumber: { label: 'Serial Number' },
  location: { label: 'Location' },
  latitude: { label: 'Latitude' },
  longitude: { label: 'Longitude' },
  city: { label: 'City' },
  country: { label: 'Country' },
  address: { label: 'Address' },
  status: { label: 'Status', format: labels(deviceStatusLabels) },
  maintenanceWindow: { label: 'Maintenance window' },
  exemptionKind: { label: 'Licence exemption kind', format: labels(exemptionKindLabels) },
  exemptionReason: { label: 'Licence exemption reason' },
  exemptionUntil: { label: 'Licence exempt until', format: 'date-time' },
};

const fieldsByKind: Record<HistoryKind, Record<string, HistoryField>> = {
  device: deviceFields,
  user: {
    firstName: { label: 'First Name' },
    lastName: { label: 'Last Name' },
    userName: { label: 'User Name' },
    email: { label: 'Email' },
    phone: { label: 'Phone No.' },
    roleId: { label: 'Role' },
    isDeletable: { label: 'Deletable', format: 'yes-no' },
    profileImage: { label: 'Profile image' },
    password: { label: 'Password' },
  },
  role: {
    roleName: { label: 'Role Name' },
    type: { label: 'Type', format: labels(roleTypeLabels) },
    permissions: { label: 'Permissions' },
  },
  subscription: {
    fullName: { label: 'Name' },
    email: { label: 'Email' },
    machineSerialNumber: { label: 'Machine Serial No.' },
    amountCents: { label: 'Amount', format: 'cents' },
    isRecurring: { label: 'Recurring', format: 'yes-no' },
    planType: { label: 'Plan', format: labels(planTypeLabels) },
    status: { label: 'Status', format: labels(subscriptionStatusLabels) },
    expiredAt: { label: 'Link Expiry Time', format: 'date-time' },
    paidAt: { label: 'Paid at', format: 'date-time' },
    paidThrough: { label: 'Paid through', format: 'date-time' },
    graceUntil: { label: 'Grace until', format: 'date-time' },
    renewalFailedAt: { label: 'Renewal failed at', format: 'date-time' },
    collectionPausedAt: { label: 'Collection paused at', format: 'date-time' },
    cancelAtPeriodEnd: { label: "Ends at the period's end", format: 'yes-no' },
    cancelledAt: { label: 'Cancelled at', format: 'date-time' },
    revokedAt: { label: 'Revoked at', format: 'date-time' },
  },
  'app-update': {
    appName: { label: 'App Name' },
    versionName: { label: 'Version Name' },
    versionCode: { label: 'Version Code' },
    remark: { label: 'Remark' },
    updateDesc: { label: 'Update Description' },
    updateType: { label: 'Update Type', format: labels(updateTypeLabels) },
    rolloutPercent: { label: 'Rollout (%)' },
    respectsWindow: { label: 'Waits for maintenance windows', format: 'yes-no' },
    rolloutState: { label: 'Rollout', format: labels(rolloutStateLabels) },
    approvalPending: { label: 'Waiting for approval' },
  },
  group: {
    name: { label: 'Name' },
    filter: { label: 'Filter' },
    maintenanceWindow: { label: 'Maintenance window' },
  },
  'fleet-settings': {},
  doctor: {
    userName: { label: 'User Name' },
    email: { label: 'Email' },
    phonenumber: { label: 'Phone Number' },
    address: { label: 'Address' },
    status: { label: 'Status', format: labels(deviceUserStatusLabels) },
    password: { label: 'Password' },
  },
  patient: {
    patientname: { label: 'Patient Name' },
    email: { label: 'Email' },
    phone: { label: 'Phone Number' },
    address: { label: 'Address' },
  },
};

/** A field's label and format; a setting ('settings.<key>') takes the settings catalogue's label. */
export function historyFieldOf(kind: HistoryKind, field: string): HistoryField {
  const known = fieldsByKind[kind][field];
  if (known) return known;
  if (field.startsWith('settings.')) {
    const key = field.slice('settings.'.length) as SettingKey;
    const setting = settingLabels[key];
    return {
      label: `Setting: ${setting?.label ?? key}`,
      format: key === 'language' ? labels(languageLabels) : 'text',
    };
  }
  return { label: field };
}
