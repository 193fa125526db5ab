import { describe, expect, it } from 'vitest';
import { createTestApp } from '../test/test-app.ts';
import { loggableUrl } from './log-url.ts';

describe('the request URL in the server log', () => {
  it('keeps the path and the paging and sorting parameters, and redacts every other value', () => {
    expect(loggableUrl('/api/v1/admin/users/all?page=2&limit=10&sort=name&direction=asc')).toBe(
      '/api/v1/admin/users/all?page=2&limit=10&sort=name&direction=asc',
    );
    expect(loggableUrl('/api/x?otp=123456&page=1&token=abc.def.ghi&rememberToken=zz&api_key=k')).toBe(
      '/api/x?otp=[redacted]&page=1&token=[redacted]&rememberToken=[redacted]&api_key=[redacted]',
    );
    // A treatment search by a patient's name, an email filter: personal data, not in the log.
    expect(loggableUrl('/api/v1/admin/treatement-records?search=Luca%20Neri&page=1')).toBe(
      '/api/v1/admin/treatement-records?search=[redacted]&page=1',
    );
    expect(loggableUrl('/api/x?email=ada%40example.com&Luca+Neri&%E0%A4%A=1')).toBe(
      '/api/x?email=[redacted]&[redacted]&%E0%A4%A=[redacted]',
    );
    expect(loggableUrl('/plans/abc')).toBe('/plans/abc');
    // A field safety notice's acknowledgement token (decision 084) is a key in the path.
    expect(loggableUrl('/api/v1/safety-notice-ack/AbC-12_xyz?x=1')).toBe(
      '/api/v1/safety-notice-ack/[redacted]?x=[redacted]',
    );
  });

  it('is what the running server logs for a request', async () => {
    const lines: string[] = [];
    const t = await createTestApp();
    try {
      const { buildApp } = await import('../app.ts');
      const app = await buildApp({
        config: t.config,
        database: t.database,
        logStream: { write: (l) => void lines.push(l) },
      });
      await app.inject({ method: 'GET', url: '/api/health?otp=987654&search=Luca+Neri&page=1' });
      await app.close();
      const logged = lines.join('');
      expect(logged).toContain('/api/health?otp=[redacted]&search=[redacted]&page=1');
      expect(logged).not.toContain('987654');
      expect(logged).not.toContain('Neri');
    } finally {
      await t.close();
    }
  });
});
