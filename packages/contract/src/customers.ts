import { z } from 'zod';
import { idParamSchema, sortDirections } from './devices.ts';
import { envelope } from './envelope.ts';
import { exportColumnsQuery } from './export-columns.ts';
import { facetValueSchema } from './facets.ts';
import { pageQuery, requiredText, strictObject } from './fields.ts';
import { licenceStates } from './licences.ts';
import { customerExportColumns, customerMessages, customerSortKeys } from './customers-texts.ts';

export * from './customers-texts.ts';

/*
 * Customers (clinics), issue 39 item 1, decision 087: the schemas. Name and country are required;
 * the rest may be blank. Paths and texts: customers-texts.ts; a machine's holder over time:
 * machine-assignments.ts.
 */

export const customerLimits = {
  name: 200,
  country: 120,
  address: 500,
  billingEmail: 254,
  taxId: 60,
  notes: 4000,
} as const;

const optionalText = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text` })
    .trim()
    .max(max, `${field} must be at most ${max} characters`);

const billingEmail = optionalText('Billing email', customerLimits.billingEmail).refine(
  (v) => v === '' || z.email().safeParse(v).success,
  customerMessages.billingEmailInvalid,
);

const fields = {
  name: requiredText(customerMessages.nameRequired, customerLimits.name),
  country: requiredText(customerMessages.countryRequired, customerLimits.country),
  address: optionalText('Address', customerLimits.address),
  billingEmail,
  taxId: optionalText('Tax id', customerLimits.taxId),
  notes: optionalText('Notes', customerLimits.notes),
  /** The clinic's users must use two-step sign-in (issue 39 item 3). */
  requireMfa: z.boolean({ error: customerMessages.requireMfaInvalid }),
};

/** POST customers: name and country; the others blank (and requireMfa false) when left out. */
export const customerCreateBodySchema = strictObject({
  name: fields.name,
  country: fields.country,
  address: fields.address.default(''),
  billingEmail: fields.billingEmail.default(''),
  taxId: fields.taxId.default(''),
  notes: fields.notes.default(''),
  requireMfa: fields.requireMfa.default(false),
});
export type CustomerCreateBodyInput = z.input<typeof customerCreateBodySchema>;
export type CustomerCreateBody = z.output<typeof customerCreateBodySchema>;

/** PUT customers/{id}: the fields sent change, the others stay. */
export const customerUpdateBodySchema = strictObject({
  name: fields.name.optional(),
  country: fields.country.optional(),
  address: fields.address.optional(),
  billingEmail: fields.billingEmail.optional(),
  taxId: fields.taxId.optional(),
  notes: fields.notes.optional(),
  requireMfa: fields.requireMfa.optional(),
});
export type CustomerUpdateBody = z.output<typeof customerUpdateBodySchema>;

export const customerIdParamSchema = idParamSchema(customerMessages.invalidId);

const country = z
  .string()
  .trim()
  .min(1, 'country must not be empty')
  .max(customerLimits.country, `country must be at most ${customerLimits.country} characters`);

/** The list's filters: a search over name, country, billing email and tax id, and the country facet. */
export const customerFilterShape = {
  search: z.string().trim().max(100, 'search must be at most 100 characters').optional(),
  country: country.optional(),
};
const sortShape = {
  sort: z
    .enum(customerSortKeys, { error: `sort must be one of ${customerSortKeys.join(', ')}` })
    .default('name'),
  direction: z.enum(sortDirections, { error: 'direction must be asc or desc' }).optional(),
};

/** GET customers: page, limit, sort (default name ascending), direction and the filters. */
export const customerListQuerySchema = pageQuery.extend({ ...customerFilterShape, ...sortShape });
export type CustomerListQuery = z.output<typeof customerListQuerySchema>;

/** GET customers/export: the list's filters and order, and the columns to write. */
export const customerExportQuerySchema = strictObject({
  ...customerFilterShape,
  ...sortShape,
  columns: exportColumnsQuery(customerExportColumns),
});
export type CustomerExportQuery = z.output<typeof customerExportQuerySchema>;

/** GET customers/facets: the countries (within the search when given), with counts. */
export const customerFacetsQuerySchema = strictObject({ search: customerFilterShape.search });
export const customerFacetsSchema = z.object({ countries: z.array(facetValueSchema) });
export type CustomerFacets = z.infer<typeof customerFacetsSchema>;
export const customerFacetsResponseSchema = envelope(customerFacetsSchema);

export const customerSchema = z.object({
  _id: z.string(),
  name: z.string(),
  country: z.string(),
  address: z.string(),
  billingEmail: z.string(),
  taxId: z.string(),
  notes: z.string(),
  requireMfa: z.boolean(),
  /** The machines it holds now. */
  machineCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Customer = z.infer<typeof customerSchema>;
export const customerResponseSchema = envelope(customerSchema);
export const customerDeleteResponseSchema = envelope(z.null());

const paged = <K extends string, T extends z.ZodType>(key: K, row: T) =>
  z.object({
    [key]: z.array(row),
    total: z.number().int(),
    totalPages: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
  } as { [P in K]: z.ZodArray<T> } & {
    total: z.ZodNumber;
    totalPages: z.ZodNumber;
    page: z.ZodNumber;
    limit: z.ZodNumber;
  });

export const customerListSchema = paged('customers', customerSchema);
export type CustomerList = z.infer<typeof customerListSchema>;
export const customerListResponseSchema = envelope(customerListSchema);

/** A page of one of the detail page's pieces. */
export const customerPieceQuerySchema = pageQuery;

/** A machine the customer holds now, with its licence (the Licence column's fields of the device list). */
export const customerMachineSchema = z.object({
  _id: z.string(),
  machineNumber: z.string(),
  serialNumber: z.string(),
  location: z.string(),
  city: z.string(),
  country: z.string(),
  status: z.number().int(),
  lastSeenAt: z.string().nullable(),
  licenceState: z.enum(licenceStates),
  licencePaidThrough: z.string().nullable(),
  licenceGraceUntil: z.string().nullable(),
  /** Since when the customer holds it (its open period's start). */
  assignedFrom: z.string().nullable(),
});
export type CustomerMachine = z.infer<typeof customerMachineSchema>;
export const customerMachineListSchema = paged('machines', customerMachineSchema);
export const customerMachineListResponseSchema = envelope(customerMachineListSchema);

/** A subscription of the customer, as the subscriptions list shows it. */
export const customerSubscriptionSchema = z.object({
  _id: z.string(),
  machineSerialNumber: z.string(),
  deviceId: z.string().nullable(),
  fullName: z.string(),
  email: z.string(),
  amount: z.number(),
  isRecurring: z.boolean(),
  planType: z.string().nullable(),
  status: z.number().int(),
  createdAt: z.string(),
  expiredAt: z.string().nullable(),
  paidThrough: z.string().nullable(),
});
export type CustomerSubscription = z.infer<typeof customerSubscriptionSchema>;
export const customerSubscriptionListSchema = paged('subscriptions', customerSubscriptionSchema);
export const customerSubscriptionListResponseSchema = envelope(customerSubscriptionListSchema);

/** A row of the audit trail about the customer, newest first. */
export const customerActivitySchema = z.object({
  _id: z.string(),
  createdAt: z.string(),
  userEmail: z.string().nullable(),
  resource: z.string(),
  statusCode: z.number().int().nullable(),
  machineNumber: z.string().nullable(),
  recordKind: z.string().nullable(),
  recordId: z.string().nullable(),
  event: z.string().nullable(),
});
export type CustomerActivity = z.infer<typeof customerActivitySchema>;
export const customerActivityListSchema = paged('activity', customerActivitySchema);
export const customerActivityListResponseSchema = envelope(customerActivityListSchema);
