import { describe, expect, it } from 'vitest';
import { checkoutPageOf, planIdOf } from './checkout-paths.ts';

describe('checkoutPageOf', () => {
  it.each([
    ['/plans', 'plans'],
    ['/plans/', 'plans'],
    ['/plans/Lnk_0123', 'plans'],
    ['/plans/Lnk_0123/', 'plans'],
    ['/PLANS/Lnk_0123', 'plans'],
    ['/success', 'success'],
    ['/success/', 'success'],
    ['/cancel', 'cancel'],
  ])('gives the checkout page of %s', (path, page) => {
    expect(checkoutPageOf(path)).toBe(page);
  });

  it.each(['/', '/login-admin', '/plans/a/b', '/plansx', '/successful', '/admin/cancel', '/admin/plans/1'])(
    'leaves %s to the console',
    (path) => {
      expect(checkoutPageOf(path)).toBeNull();
    },
  );
});

describe('planIdOf', () => {
  it('reads the decoded id of /plans/{id}', () => {
    expect(planIdOf('/plans/Lnk_0123')).toBe('Lnk_0123');
    expect(planIdOf('/plans/a%20b/')).toBe('a b');
  });

  it('has no id for /plans alone or an id that is not valid URL text', () => {
    expect(planIdOf('/plans')).toBeUndefined();
    expect(planIdOf('/plans/')).toBeUndefined();
    expect(planIdOf('/plans/%E0%A4%A')).toBeUndefined();
  });
});
