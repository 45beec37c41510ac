import { describe, expect, it } from 'vitest';
import { sameFormData } from './sameFormData';

describe('sameFormData (the unsaved-changes comparison)', () => {
  it('treats empty string, null, undefined, [] and a missing key alike', () => {
    expect(sameFormData({ email: '' }, {})).toBe(true);
    expect(sameFormData({ email: undefined }, { email: null })).toBe(true);
    expect(sameFormData({ groups: [] }, {})).toBe(true);
    expect(sameFormData({ description: '' }, { description: undefined })).toBe(true);
  });

  it('sees a changed or added value', () => {
    expect(sameFormData({ email: 'a@x.io' }, { email: 'b@x.io' })).toBe(false);
    expect(sameFormData({}, { email: 'a@x.io' })).toBe(false);
    expect(sameFormData({ admin: false }, { admin: true })).toBe(false);
  });

  it('does not take false or 0 for empty', () => {
    expect(sameFormData({ admin: false }, {})).toBe(false);
    expect(sameFormData({ count: 0 }, {})).toBe(false);
  });

  it('compares arrays by content and order', () => {
    expect(sameFormData({ groups: ['a', 'b'] }, { groups: ['a', 'b'] })).toBe(true);
    expect(sameFormData({ groups: ['a', 'b'] }, { groups: ['b', 'a'] })).toBe(false);
    expect(sameFormData({ groups: ['a'] }, { groups: ['a', 'b'] })).toBe(false);
  });

  it('compares nested objects with the same rules', () => {
    expect(
      sameFormData({ policy: { enabled: true, note: '' } }, { policy: { enabled: true } }),
    ).toBe(true);
    expect(sameFormData({ policy: { enabled: true } }, { policy: { enabled: false } })).toBe(false);
  });

  it('ignores internal fields such as the password retype', () => {
    expect(sameFormData({ name: 'jo' }, { name: 'jo', _confirm_password: 'secret' })).toBe(true);
  });
});
