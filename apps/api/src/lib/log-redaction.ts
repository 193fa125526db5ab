/** Log fields pino replaces with [redacted]: credentials in headers, and secrets a handler or a library might log as a field, at any of the first three depths. */
export const redactedLogPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["stripe-signature"]',
  'res.headers["set-cookie"]',
  ...[
    'password',
    'old_password',
    'new_password',
    'otp',
    'code',
    'token',
    'accessToken',
    'rememberToken',
    'mfaToken',
    'secret',
    'cardNumber',
  ].flatMap((key) => [key, `*.${key}`, `*.*.${key}`]),
];
