import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { ResourcePanel } from './ResourcePanel';
import { OtherSectionsPanel } from './OtherSectionsPanel';

describe('the permission editor panels', () => {
  it('never lists the _intransit repository (spec 01 §3)', () => {
    render(
      <ResourcePanel
        resource="repo"
        repositories={[
          { repoKey: 'libs', repoType: 'local', packageType: 'generic' },
          { repoKey: 'bundles_intransit', repoType: 'local', packageType: 'generic' },
        ]}
      />,
    );
    expect(screen.getByRole('checkbox', { name: 'libs' })).toBeTruthy();
    expect(screen.queryByRole('checkbox', { name: 'bundles_intransit' })).toBeNull();
  });

  it('shows a destinations section set over REST read-only, with what it grants', () => {
    render(
      <OtherSectionsPanel
        sections={{
          destination: {
            destinationRules: [{ siteName: 'edge-*', cityName: '*', countryCodes: ['DE', 'FR'] }],
            actions: { users: { dev: ['distribute', 'delete'] }, groups: {} },
          },
        }}
      />,
    );
    const section = screen.getByRole('region', { name: 'Destinations' });
    expect(within(section).getByText('Covers: edge-* / * / DE, FR')).toBeTruthy();
    expect(within(section).getByText('dev (Users)')).toBeTruthy();
    expect(within(section).getByText('Distribute, Delete')).toBeTruthy();
    expect(within(section).queryByRole('checkbox')).toBeNull();
    expect(within(section).queryByRole('textbox')).toBeNull();
  });
});
