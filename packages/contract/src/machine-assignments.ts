import { z } from 'zod';
import { deviceBulkFiltersSchema, selection } from './bulk-actions.ts';
import { envelope } from './envelope.ts';
import { pageQuery, strictObject } from './fields.ts';
import { customerMessages } from './customers-texts.ts';

/*
 * A machine's holder over time (issue 39 item 2, decision 087). Assigning names the customer and
 * from when (default now; it may be in the past, but not before the machine's current period began,
 * nor before its last one ended, and not in the future): the open period closes then and the new one
 * opens. Returning closes the open period (the machine is back at the supplier). Records a machine
 * made keep the customer that held it then, whenever they arrive.
 */

const isoTime = (message: string) => z.iso.datetime({ offset: true, error: message }).max(64, message);

const reason = z
  .string({ error: 'reason must be text' })
  .trim()
  .max(500, customerMessages.reasonTooLong)
  .default('');

const customerId = z.uuid({
  error: (i) => (i.input == null ? customerMessages.customerIdRequired : customerMessages.customerIdInvalid),
});

const assignFields = {
  customerId,
  /** When the machine came to the customer; now when left out. */
  from: isoTime(customerMessages.fromInvalid).optional(),
  reason,
};

/** POST machine/{id}/assignment. */
export const assignmentBodySchema = strictObject(assignFields);
export type AssignmentBody = z.output<typeof assignmentBodySchema>;

/** POST machine/{id}/return: when it came back (now when left out) and why. */
export const returnBodySchema = strictObject({ at: isoTime(customerMessages.atInvalid).optional(), reason });
export type ReturnBody = z.output<typeof returnBodySchema>;

/** POST machine/bulk-assign: the picked or matching machines, to one customer; each answered (bulk-actions.ts). */
export const bulkAssignBodySchema = selection(deviceBulkFiltersSchema, assignFields);
export type BulkAssignBody = z.output<typeof bulkAssignBodySchema>;

/** One period in which a customer held a machine. */
export const assignmentSchema = z.object({
  _id: z.string(),
  deviceId: z.string(),
  machineNumber: z.string(),
  serialNumber: z.string(),
  customerId: z.string(),
  customerName: z.string(),
  from: z.string(),
  /** Null: it holds the machine now. */
  until: z.string().nullable(),
  reason: z.string(),
  /** Why the period ended: the next assignment's or the return's reason. */
  endReason: z.string().nullable(),
  /** The admin who assigned it (email), null once they are deleted. */
  assignedBy: z.string().nullable(),
  createdAt: z.string(),
});
export type Assignment = z.infer<typeof assignmentSchema>;
export const assignmentResponseSchema = envelope(assignmentSchema);

/** A machine's periods, or a customer's, newest first. */
export const assignmentListQuerySchema = pageQuery;
export const assignmentListSchema = z.object({
  assignments: z.array(assignmentSchema),
  total: z.number().int(),
  totalPages: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type AssignmentList = z.infer<typeof assignmentListSchema>;
export const assignmentListResponseSchema = envelope(assignmentListSchema);

/** The answer to a return: the period it closed. */
export const returnResponseSchema = envelope(assignmentSchema);
