const shape = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/;

/** True for IANA zone names this runtime knows (Europe/Berlin, UTC, Asia/Kolkata, ...). */
export function isIanaTimeZone(value: string): boolean {
  if (value.length > 64 || !shape.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}
