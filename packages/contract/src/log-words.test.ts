import { describe, expect, it } from 'vitest';
import { logInWords } from './log-words.ts';

type Over = Partial<{ machineNumber: string; recordKind: string; recordId: string; changedFields: string[] }>;
const words = (resource: string, over: Over = {}) =>
  logInWords({
    resource,
    machineNumber: over.machineNumber ?? null,
    recordKind: over.recordKind ?? null,
    recordId: over.recordId ?? null,
    changedFields: over.changedFields ?? null,
  });

describe('an access-log row in words', () => {
  it('names a look at a record, and links it', () => {
    expect(words('VIEW patient p-1', { machineNumber: 'MN-1060' })).toEqual({
      text: 'Viewed patient on MN-1060',
      record: { kind: 'patient', id: 'p-1' },
    });
  });

  it('names a reveal with its fields and reason, never more', () => {
    expect(words('REVEAL doctor d-2: email, phone, address (reason: Billing)')).toEqual({
      text: 'Revealed doctor: email, phone, address (reason: Billing)',
      record: { kind: 'doctor', id: 'd-2' },
    });
  });

  it('names an export with its list, row count and filters, and one cut short', () => {
    expect(words('EXPORT devices 1200 rows: status=2&country=Germany')).toEqual({
      text: 'Exported 1,200 rows of devices (filters status=2&country=Germany)',
      record: null,
    });
    expect(words('EXPORT devices 3000 rows (cut short): all')?.text).toBe(
      'Exported 3,000 rows of devices (every row), cut short',
    );
  });

  it('says when an export of health data went out unmasked', () => {
    expect(words('EXPORT patients 12 rows unmasked: machineNumber=M-1')?.text).toBe(
      'Exported 12 rows of patients unmasked (filters machineNumber=M-1)',
    );
    expect(words('EXPORT treatments 40 rows (cut short) unmasked: all')?.text).toBe(
      'Exported 40 rows of treatments unmasked (every row), cut short',
    );
  });

  it("names an export's first row, written before its file, with its list and filters", () => {
    expect(words('EXPORTING patients unmasked: machineNumber=M-1')).toEqual({
      text: 'Started exporting patients unmasked (filters machineNumber=M-1)',
      record: null,
    });
    expect(words('EXPORTING devices: all')?.text).toBe('Started exporting devices (every row)');
  });

  it('says what a retention run removed, by record type (decision 086)', () => {
    expect(words('RETENTION run: treatmentRecords 3, patientData 0, logs 12000, auditTrail 0')).toEqual({
      text: 'Retention run removed treatment records 3, access and error logs 12,000',
      record: null,
    });
    expect(words('RETENTION run: treatmentRecords 0, mail 0')?.text).toBe(
      'Retention run: nothing was past its period',
    );
  });

  it('names a bulk action (its records are the listed ids, not one record)', () => {
    expect(
      words('POST /api/v1/admin/machine/bulk-status', { recordKind: 'device', changedFields: ['status'] }),
    ).toEqual({ text: 'Changed the status of devices in bulk: status', record: null });
    expect(words('POST /api/v1/admin/users/bulk-delete', { recordKind: 'user' })).toEqual({
      text: 'Deleted users in bulk',
      record: null,
    });
  });

  it('names a console change with the device it was about', () => {
    expect(words('PUT /api/v1/admin/machine/:id', { machineNumber: 'MN-1060' })?.text).toBe(
      'Changed device MN-1060',
    );
    expect(words('GET /api/v1/admin/machine')?.text).toBe('Listed devices');
    expect(words('GET /api/v1/admin/technicians/all')?.text).toBe('Listed technicians');
    expect(words('GET /api/v1/admin/access-logs/all')?.text).toBe('Read the access logs');
  });

  it('names an alarm acknowledged or resolved with its device, and links the device (decision 049)', () => {
    const about = { machineNumber: 'MN-1060', recordKind: 'device', recordId: 'd-9' };
    expect(words('POST /api/v1/admin/alarms/:id/acknowledge', about)).toEqual({
      text: 'Acknowledged an alarm of device MN-1060',
      record: { kind: 'device', id: 'd-9' },
    });
    expect(words('POST /api/v1/admin/alarms/:id/resolve', about)?.text).toBe(
      'Resolved an alarm of device MN-1060',
    );
    expect(words('GET /api/v1/admin/alarms')?.text).toBe('Listed alarms');
    expect(words('PUT /api/v1/admin/profile/alarm-digest')?.text).toBe('Changed their daily alarm digest');
    expect(words('PUT /api/v1/admin/preferences/color-mode')?.text).toBe('Changed their colour mode');
  });

  it('names the fields a change set, after the record, and links the device (decision 048)', () => {
    expect(
      words('PUT /api/v1/admin/machine/:id', {
        machineNumber: 'MN-1060',
        recordKind: 'device',
        recordId: 'd-1',
        changedFields: ['status'],
      }),
    ).toEqual({ text: 'Changed device MN-1060: status', record: { kind: 'device', id: 'd-1' } });
    expect(
      words('PUT /api/v1/admin/roles/:id', {
        recordKind: 'role',
        recordId: 'r-1',
        changedFields: ['roleName', 'permissions'],
      }),
    ).toEqual({ text: 'Changed role: roleName, permissions', record: { kind: 'role', id: 'r-1' } });
    expect(words('PUT /api/v1/admin/profile', { changedFields: ['firstName', 'phone'] })?.text).toBe(
      'Updated their profile: firstName, phone',
    );
  });

  it("names a create's record, and shortens a long list of fields", () => {
    const form = ['firstName', 'lastName', 'roleId', 'userName', 'email', 'phone', 'password', 'a', 'b', 'c'];
    expect(
      words('POST /api/v1/admin/users', { recordKind: 'user', recordId: 'u-9', changedFields: form }),
    ).toEqual({
      text: 'Added a user: firstName, lastName, roleId, userName, email, phone, password, a and 2 more',
      record: { kind: 'user', id: 'u-9' },
    });
    expect(
      words('POST /api/v1/admin/machine/add', {
        machineNumber: 'MN-7',
        recordKind: 'device',
        recordId: 'd-7',
      })?.text,
    ).toBe('Added a device MN-7');
  });

  it('says nothing of fields when the row names none (a delete, a row from before decision 048)', () => {
    expect(words('DELETE /api/v1/admin/roles/:id', { changedFields: [] })?.text).toBe('Deleted role');
    expect(words('PUT /api/v1/admin/machine/:id', { machineNumber: 'MN-1' })?.text).toBe(
      'Changed device MN-1',
    );
  });

  it('links a change to a user or role only when the row names that record', () => {
    expect(words('DELETE /api/v1/admin/users/:id', { recordKind: 'user', recordId: 'u-1' })).toEqual({
      text: 'Deleted user',
      record: { kind: 'user', id: 'u-1' },
    });
    expect(words('DELETE /api/v1/admin/users/:id')?.record).toBeNull();
  });

  it("names a machine's own calls with the machine", () => {
    expect(words('POST /api/v1/app/access-logs', { machineNumber: 'MN-7' })?.text).toBe(
      'Machine sent access logs on MN-7',
    );
  });

  it('has no words for what it does not know', () => {
    expect(words('Opened the treatment screen')).toBeNull();
    expect(words('GET /api/v1/admin/something/new')).toBeNull();
  });
});
