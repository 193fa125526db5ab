import { z } from 'zod';
import { idParamSchema } from './devices.ts';
import { envelope } from './envelope.ts';
import { pageQuery } from './fields.ts';

/*
 * The Outbox (issue 35 item 3): every mail the server has sent or is trying to send, so an admin can
 * see why a customer never got a payment link or a reset code, and send a failed one again. A body
 * that holds a one-time code or a link is never shown (decision 031 clears it once sent).
 */

/** The module's own API paths (a module's paths live in its contract file, decision 067). */
export const outboxPaths = {
  list: '/api/v1/admin/outbox',
  message: (id: string) => `/api/v1/admin/outbox/${id}`,
  resend: (id: string) => `/api/v1/admin/outbox/${id}/resend`,
} as const;

/** As stored (apps/api/src/db/schema/mail.ts): 'logged' is kept without SMTP, never delivered. */
export const mailStatuses = ['pending', 'sent', 'failed', 'logged'] as const;
export type MailStatus = (typeof mailStatuses)[number];

export const mailStatusLabels: Record<MailStatus, string> = {
  pending: 'Sending',
  sent: 'Sent',
  failed: 'Failed',
  logged: 'Not delivered (no SMTP)',
};

export const outboxMessages = {
  notFound: 'Message not found',
  invalidId: 'Invalid message id',
  statusInvalid: `status must be one of ${mailStatuses.join(', ')}`,
  resendOnlyFailed: 'Only a message whose delivery failed can be sent again',
  resent: 'The message will be sent again within a minute',
} as const;

export const outboxTexts = {
  title: 'Outbox',
  empty: 'No messages found.',
  searchLabel: 'Search by recipient or subject',
  allStatuses: 'All statuses',
  resend: 'Send again',
  resendTitle: 'Send again',
  resendText: (to: string) => `Send this message to ${to} again? It gets a fresh set of tries.`,
  view: 'View',
  secretBody: 'This message holds a one-time code or a link: its text is never shown here.',
  noBody: 'No text.',
  notDelivered:
    'This server has no SMTP server set (SMTP_URL): messages are kept here and in its output, not delivered.',
} as const;

export const outboxListQuerySchema = pageQuery.extend({
  status: z.enum(mailStatuses, { error: outboxMessages.statusInvalid }).optional(),
  search: z
    .string({ error: 'search must be text' })
    .trim()
    .max(100, 'search must be at most 100 characters')
    .optional(),
});
export type OutboxListQuery = z.output<typeof outboxListQuerySchema>;

export const outboxIdParamSchema = idParamSchema(outboxMessages.invalidId);

export const outboxMessageSchema = z.object({
  _id: z.string(),
  to: z.string(),
  subject: z.string(),
  status: z.enum(mailStatuses),
  /** Delivery tries so far (since the last "Send again"). */
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  /** When the next try is due (failed and sending messages). */
  nextAttemptAt: z.string().nullable(),
  /** The body holds a one-time code or a link: `text` is never answered. */
  holdsSecret: z.boolean(),
});
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;

/** One message, with its text unless it holds a secret. */
export const outboxMessageDetailSchema = outboxMessageSchema.extend({ text: z.string().nullable() });
export type OutboxMessageDetail = z.infer<typeof outboxMessageDetailSchema>;

export const outboxListSchema = z.object({
  messages: z.array(outboxMessageSchema),
  total: z.number().int(),
  totalPages: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  /** Whether this server delivers mail at all (SMTP_URL set). */
  delivers: z.boolean(),
});
export type OutboxList = z.infer<typeof outboxListSchema>;

export const outboxListResponseSchema = envelope(outboxListSchema);
export const outboxMessageResponseSchema = envelope(outboxMessageDetailSchema);
