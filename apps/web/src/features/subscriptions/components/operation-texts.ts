import type { Permission } from '@app/contract/permissions';
import type { SubscriptionDetail, SubscriptionOperationName } from '@app/contract/subscription-operations';

/**
 * What the console calls each operation, and the permission it needs (as the API's routes declare
 * it, packages/contract/src/subscription-operations.ts): giving time without payment is
 * licences.manage, the link and the plan subscriptions.manage. In menu and toolbar order.
 */
export const operations: ReadonlyArray<{
  name: SubscriptionOperationName;
  label: string;
  permission: Permission;
  danger?: boolean;
}> = [
  { name: 'resend', label: 'Resend link', permission: 'subscriptions.manage' },
  { name: 'extend', label: 'Extend paid-through date', permission: 'licences.manage' },
  { name: 'grace', label: 'Grant grace', permission: 'licences.manage' },
  { name: 'resume', label: 'Resume collection', permission: 'subscriptions.manage' },
  { name: 'retry', label: 'Retry payment now', permission: 'subscriptions.manage' },
  { name: 'cardUpdate', label: 'Send card update link', permission: 'subscriptions.manage' },
  { name: 'revoke', label: 'Revoke link', permission: 'subscriptions.manage', danger: true },
  { name: 'cancel', label: 'Cancel plan', permission: 'subscriptions.manage', danger: true },
];

export const operationLabel = (name: SubscriptionOperationName) =>
  operations.find((o) => o.name === name)!.label;

/** The operation an admin chose from a row menu or the page, on the subscription it is for. */
export type OperationTarget = { name: SubscriptionOperationName; detail: SubscriptionDetail };

/** What every operation's dialog takes: the chosen operation (its own shows), and how to close. */
export type OperationDialogProps = { target: OperationTarget | null; onClose: () => void };
