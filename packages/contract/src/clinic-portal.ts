import { z } from 'zod';
import { paymentProviders, planTypes } from './checkout.ts';
import {
  clinicMachineSortKeys,
  clinicPortalMessages as m,
  figureGroupings,
  figuresMaxDays,
} from './clinic-portal-texts.ts';
import { customerActivityListResponseSchema } from './customers.ts';
import { sortDirections } from './devices.ts';
import { envelope } from './envelope.ts';
import { pageQuery, strictObject } from './fields.ts';
import { licenceStates } from './licences.ts';

/*
 * The clinic portal's shapes (issue 39 item 5). Days and months are the clinic user's own (the
 * request's X-Timezone), as the console's day filters are the admin's. No shape carries anything
 * about a patient: the figures count treatments by machine, doctor and time only (decision 045).
 */

const day = (message: string) =>
  z
    .string({ error: message })
    .max(10, message)
    .regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, message)
    .refine(
      (v) =>
        !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
      message,
    );

const month = z
  .string({ error: m.monthInvalid })
  .max(7, m.monthInvalid)
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, m.monthInvalid);

// ---- machines

export const clinicMachineListQuerySchema = pageQuery.extend({
  search: z.string().trim().max(100, 'search must be at most 100 characters').optional(),
  sort: z
    .enum(clinicMachineSortKeys, { error: `sort must be one of ${clinicMachineSortKeys.join(', ')}` })
    .default('machineNumber'),
  direction: z.enum(sortDirections, { error: 'direction must be asc or desc' }).optional(),
});
export type ClinicMachineListQuery = z.output<typeof clinicMachineListQuerySchema>;

export const clinicMachineSchema = z.object({
  _id: z.string(),
  machineNumber: z.string(),
  serialNumber: z.string(),
  location: z.string(),
  city: z.string(),
  country: z.string(),
  /** 1 Inactive, 2 Active (devices.ts). */
  status: z.number().int(),
  lastSeenAt: z.string().nullable(),
  /** Seen within DEVICE_OFFLINE_MINUTES. */
  online: z.boolean(),
  licenceState: z.enum(licenceStates),
  licencePaidThrough: z.string().nullable(),
  licenceGraceUntil: z.string().nullable(),
  /** Since when the clinic holds it. */
  heldSince: z.string().nullable(),
});
export type ClinicMachine = z.infer<typeof clinicMachineSchema>;

export const clinicMachineListSchema = z.object({
  machines: z.array(clinicMachineSchema),
  total: z.number().int(),
  totalPages: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type ClinicMachineList = z.infer<typeof clinicMachineListSchema>;
export const clinicMachineListResponseSchema = envelope(clinicMachineListSchema);

// ---- treatment figures

const rangeShape = { from: day(m.fromInvalid).optional(), to: day(m.toInvalid).optional() };
const dayMs = 86_400_000;
const rangeChecked = <T extends { from?: string; to?: string }>(v: T, ctx: z.RefinementCtx) => {
  if (!v.from || !v.to) return;
  const span = (Date.parse(v.to) - Date.parse(v.from)) / dayMs;
  if (span < 0) ctx.addIssue({ code: 'custom', path: ['to'], message: m.toBeforeFrom });
  else if (span + 1 > figuresMaxDays) ctx.addIssue({ code: 'custom', path: ['to'], message: m.rangeTooLong });
};

/** GET figures: a range of the clinic's days, both included (default: the last twelve months). */
export const figuresQuerySchema = strictObject(rangeShape).superRefine(rangeChecked);
export type FiguresQuery = z.output<typeof figuresQuerySchema>;

/** GET figures/export: the range and one grouping. */
export const figuresExportQuerySchema = strictObject({
  ...rangeShape,
  by: z.enum(figureGroupings, { error: m.byInvalid }).default('machine'),
}).superRefine(rangeChecked);
export type FiguresExportQuery = z.output<typeof figuresExportQuerySchema>;

const tally = { count: z.number().int(), minutes: z.number() };
export const figuresSchema = z.object({
  from: z.string(),
  to: z.string(),
  timeZone: z.string(),
  total: z.object(tally),
  /** Machines held now by number, then former ones (formerMachineLabel); most treatments first. */
  byMachine: z.array(z.object({ deviceId: z.string(), label: z.string(), current: z.boolean(), ...tally })),
  byDoctor: z.array(z.object({ doctorId: z.string().nullable(), label: z.string(), ...tally })),
  /** Every week (its Monday) and month (YYYY-MM) of the range, with none as 0. */
  byWeek: z.array(z.object({ week: z.string(), ...tally })),
  byMonth: z.array(z.object({ month: z.string(), ...tally })),
});
export type Figures = z.infer<typeof figuresSchema>;
export const figuresResponseSchema = envelope(figuresSchema);

// ---- subscriptions

export const clinicPaymentSchema = z.object({
  _id: z.string(),
  paidAt: z.string(),
  amount: z.number(),
  periodEnd: z.string().nullable(),
  provider: z.enum(paymentProviders),
});

export const clinicSubscriptionSchema = z.object({
  _id: z.string(),
  machineSerialNumber: z.string(),
  amount: z.number(),
  isRecurring: z.boolean(),
  planType: z.enum(planTypes).nullable(),
  /** 1 Pending, 2 Complete, 3 Expired, 4 Failed, as of now. */
  status: z.number().int(),
  createdAt: z.string(),
  expiredAt: z.string(),
  paidThrough: z.string().nullable(),
  renewalFailedAt: z.string().nullable(),
  lastPaymentError: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  cardLast4: z.string().nullable(),
  /** The public checkout page of a link still open to pay; null otherwise. */
  payUrl: z.string().nullable(),
  /** A failed renewal the clinic may pay now; the card of a live plan it may change. */
  canRetry: z.boolean(),
  canUpdateCard: z.boolean(),
  payments: z.array(clinicPaymentSchema),
});
export type ClinicSubscription = z.infer<typeof clinicSubscriptionSchema>;
export const clinicSubscriptionsSchema = z.object({ subscriptions: z.array(clinicSubscriptionSchema) });
export type ClinicSubscriptions = z.infer<typeof clinicSubscriptionsSchema>;
export const clinicSubscriptionsResponseSchema = envelope(clinicSubscriptionsSchema);

export const clinicSubscriptionParamSchema = z.object({ id: z.string().max(64) });
export const clinicPaymentParamSchema = z.object({
  id: z.string().max(64),
  paymentId: z.string().max(64),
});
export const urlResponseSchema = envelope(z.object({ url: z.string() }));
export const cardUpdateResponseSchema = envelope(z.object({ url: z.string().nullable() }));
export const demoCardResponseSchema = envelope(z.object({ cardLast4: z.string() }));
export const retryResponseSchema = envelope(z.object({ paid: z.boolean() }));

// ---- monthly usage

/** GET usage (and usage/export): one month of the clinic's (default: the current one). */
export const usageQuerySchema = strictObject({ month: month.optional() });
export type UsageQuery = z.output<typeof usageQuerySchema>;

export const usageReportSchema = z.object({
  month: z.string(),
  timeZone: z.string(),
  machines: z.array(
    z.object({
      deviceId: z.string(),
      label: z.string(),
      serialNumber: z.string().nullable(),
      current: z.boolean(),
      treatments: z.number().int(),
      minutes: z.number(),
      daysUsed: z.number().int(),
    }),
  ),
  total: z.object({ treatments: z.number().int(), minutes: z.number(), daysUsed: z.number().int() }),
});
export type UsageReport = z.infer<typeof usageReportSchema>;
export const usageReportResponseSchema = envelope(usageReportSchema);

// ---- activity

/**
 * GET clinic/activity (issue 39 item 6): the manager's pages of their clinic's audit rows, in the
 * customer page's shape; the supplier's staff are named as the supplier, not by their email.
 */
export const clinicActivityQuerySchema = pageQuery;
export const clinicActivityResponseSchema = customerActivityListResponseSchema;
