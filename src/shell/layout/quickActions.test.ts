import { describe, expect, it } from 'vitest';
import { shippedScreensFor } from '../../screens/testing';
import { adminUser, anonymousUser, plainUser } from '../session/testUsers';
import { buildQuickActions } from './quickActions';

const labels = (user: typeof adminUser) =>
  buildQuickActions(shippedScreensFor(user), user, false).map((action) => action.label);

describe('the quick actions menu (spec 01 §2)', () => {
  it('gives an admin every action of the spec but the cloud-only one, in its order', () => {
    expect(labels(adminUser)).toEqual([
      'Getting Started',
      'Quick Repository Creation',
      'Set Me Up',
      'New Local Repository',
      'New Remote Repository',
      'New Virtual Repository',
      'New User',
      'New Group',
      'New Permission',
      'Edit Profile',
      'Logout',
    ]);
    const admin = buildQuickActions(shippedScreensFor(adminUser), adminUser, false);
    expect(admin.find((a) => a.id === 'getting-started')?.route).toBe('/quick-setup');
    expect(admin.find((a) => a.id === 'quick-repository-creation')?.route).toBe('/quick-setup');
  });

  it('gives a user what is for everyone only, and a visitor no menu', () => {
    expect(labels(plainUser)).toEqual(['Set Me Up', 'Edit Profile', 'Logout']);
    expect(labels(anonymousUser)).toEqual([]);
  });
});
