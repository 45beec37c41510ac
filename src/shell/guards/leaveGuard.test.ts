import { describe, expect, it } from 'vitest';
import { leaveNeedsConfirmation } from './leaveGuard';

describe('leaveNeedsConfirmation', () => {
  const form = '/admin/management/users/jo/edit';

  it('asks when leaving the form for another page', () => {
    expect(leaveNeedsConfirmation(form, '/admin/management/users')).toBe(true);
    expect(leaveNeedsConfirmation(form, '/admin/management/groups')).toBe(true);
    expect(leaveNeedsConfirmation(form, '/404')).toBe(true);
  });

  it('does not ask for a sub-path of the current path', () => {
    expect(leaveNeedsConfirmation(form, `${form}/details`)).toBe(false);
    expect(
      leaveNeedsConfirmation('/admin/management/users/new', '/admin/management/users/new/step-2'),
    ).toBe(false);
  });

  it('does not ask on the way to login or /500', () => {
    expect(leaveNeedsConfirmation(form, '/login')).toBe(false);
    expect(leaveNeedsConfirmation(form, '/login/change-password/jo')).toBe(false);
    expect(leaveNeedsConfirmation(form, '/500')).toBe(false);
  });

  it('does not ask when staying on the same path', () => {
    expect(leaveNeedsConfirmation(form, form)).toBe(false);
  });

  it('does not mistake a sibling with the same prefix for a sub-path', () => {
    expect(
      leaveNeedsConfirmation('/admin/management/users/new', '/admin/management/users/newer'),
    ).toBe(true);
  });
});
