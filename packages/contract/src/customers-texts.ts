import type { RecordKind } from './logs.ts';

/*
 * Customers (clinics) and machine ownership over time (issue 39 items 1-2, decision 087): the paths,
 * the console's texts and the export's columns, kept free of zod so the sidebar and a list's first
 * screen load little. The schemas are in customers.ts and machine-assignments.ts.
 */

const admin = '/api/v1/admin/customers';
const machine = '/api/v1/admin/machine';

/** The module's own API paths (a module's paths live in its contract, decision 067). */
export const customerPaths = {
  /** GET: the list (search, country, sort, page); POST: a new customer. */
  list: admin,
  /** The list's facet values with their counts (country). */
  facets: `${admin}/facets`,
  /** The filtered list as a CSV file, streamed. */
  export: `${admin}/export`,
  /** GET, PUT, DELETE one customer. */
  customer: (id: string) => `${admin}/${id}`,
  /** Its detail page's pieces, each paged: machines it holds now (with their licences), subscriptions, */
  machines: (id: string) => `${admin}/${id}/machines`,
  subscriptions: (id: string) => `${admin}/${id}/subscriptions`,
  /** every period in which it held a machine, */
  assignments: (id: string) => `${admin}/${id}/assignments`,
  /** and its activity: the audit trail's rows about it (console writes, its machines' and users' rows). */
  activity: (id: string) => `${admin}/${id}/activity`,
  // Its users: clinicUserPaths.adminUsers (clinic-users-texts.ts, issue 39 item 3).
  /** A machine's holder: assign (or move) it to a customer, return it to the supplier, its history. */
  machineAssignment: (deviceId: string) => `${machine}/${deviceId}/assignment`,
  machineReturn: (deviceId: string) => `${machine}/${deviceId}/return`,
  machineAssignments: (deviceId: string) => `${machine}/${deviceId}/assignments`,
  /** Device Management's bulk action: assign the picked or matching machines to one customer. */
  machineBulkAssign: `${machine}/bulk-assign`,
} as const;

export const customerSortKeys = ['name', 'country', 'createdAt'] as const;
export type CustomerSortKey = (typeof customerSortKeys)[number];

/** The export's columns and headers, in the list's order. */
export const customerExportColumns = {
  name: 'Name',
  country: 'Country',
  address: 'Address',
  billingEmail: 'Billing email',
  taxId: 'Tax id',
  machineCount: 'Machines',
  createdAt: 'Created',
} as const;

/** The device list's customer filter value meaning "held by no customer" (at the supplier). */
export const noCustomerFilter = 'none';
export const noCustomerLabel = 'No customer';

/** How far ahead of the server's clock an assignment's `from` may be (clocks of browsers drift). */
export const assignmentFutureSkewMs = 5 * 60_000;

export const customerMessages = {
  nameRequired: 'Name is required',
  countryRequired: 'Country is required',
  billingEmailInvalid: 'Billing email must be an email address',
  requireMfaInvalid: 'requireMfa must be true or false',
  nameTaken: 'A customer with this name already exists',
  notFound: 'Customer not found',
  invalidId: 'Invalid customer id',
  created: 'Customer created',
  updated: 'Customer updated',
  deleted: 'Customer deleted',
  holdsMachines: (n: number) =>
    `This customer holds ${n} machine${n === 1 ? '' : 's'} and cannot be deleted. Return or move ${n === 1 ? 'it' : 'them'} first.`,
  hasSubscriptions: (n: number) =>
    `This customer has ${n} subscription${n === 1 ? '' : 's'} and cannot be deleted.`,
  hasHistory:
    'This customer has held machines, and the records made there stay with it: it cannot be deleted.',
  /** The list's empty text. */
  empty: 'No customers found.',
  // Assignment.
  customerIdRequired: 'customerId is required',
  customerIdInvalid: 'customerId must be a customer id',
  customerUnknown: 'customerId: no such customer',
  fromInvalid: 'from must be an ISO 8601 date-time with a time zone',
  atInvalid: 'at must be an ISO 8601 date-time with a time zone',
  reasonTooLong: 'reason must be at most 500 characters',
  inFuture: (field: 'from' | 'at') => `${field} must not be in the future`,
  beforeCurrent: (field: 'from' | 'at', since: string) =>
    `${field} must be after the machine's current period began (${since})`,
  beforeLast: (field: 'from' | 'at', until: string) =>
    `${field} must not be before the machine's last period ended (${until})`,
  alreadyHolder: 'The machine is already assigned to this customer',
  notAssigned: 'The machine is not assigned to a customer',
  assigned: 'Machine assigned',
  returned: 'Machine returned to the supplier',
} as const;

/** Admin Logs in words (log-words.ts): each route of the module as a sentence. */
export const customerLogPhrases: [method: string, pattern: RegExp, text: string, record?: RecordKind][] = [
  ['GET', /^\/customers$/, 'Listed customers'],
  ['GET', /^\/customers\/facets$/, 'Counted customers per country'],
  ['GET', /^\/customers\/export$/, 'Downloaded an export of customers'],
  ['POST', /^\/customers$/, 'Added a customer', 'customer'],
  ['GET', /^\/customers\/:id$/, 'Viewed customer', 'customer'],
  ['PUT', /^\/customers\/:id$/, 'Changed customer', 'customer'],
  ['DELETE', /^\/customers\/:id$/, 'Deleted customer', 'customer'],
  ['GET', /^\/customers\/:id\/(machines|subscriptions|assignments|activity)$/, "Viewed a customer's $1"],
  ['POST', /^\/machine\/:id\/assignment$/, 'Assigned a customer to device', 'device'],
  ['POST', /^\/machine\/:id\/return$/, 'Ended the customer assignment of device', 'device'],
  ['GET', /^\/machine\/:id\/assignments$/, 'Viewed who held device', 'device'],
  ['POST', /^\/machine\/bulk-assign$/, 'Assigned devices to a customer in bulk'],
];
