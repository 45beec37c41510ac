import { describe, expect, it } from 'vitest';
import {
  SNIPPET_SECRET,
  SNIPPET_USERNAME,
} from '../../../server/modules/set-me-up/placeholders.ts';
import { snippetsFor } from './snippets';

const context = { baseUrl: 'http://depot.test:8082/artifactory', repoKey: 'npm' };

describe('Set Me Up snippets', () => {
  it('keeps placeholders until the credentials are unlocked', () => {
    const locked = snippetsFor('pypi', { ...context, repoKey: 'pypi' });
    expect(locked.read[0]!.text).toContain(`${SNIPPET_USERNAME}:${SNIPPET_SECRET}@`);
    const unlocked = snippetsFor(
      'pypi',
      { ...context, repoKey: 'pypi' },
      { userName: 'jo', secret: 'KEY' },
    );
    expect(unlocked.read[0]!.text).toBe(
      '[global]\nindex-url = http://jo:KEY@depot.test:8082/artifactory/api/pypi/pypi/simple\n',
    );
  });

  it('writes an .npmrc with basic auth for the repository', () => {
    const { read } = snippetsFor('npm', context, { userName: 'jo', secret: 'KEY' });
    expect(read[0]!.text).toBe(
      'registry=http://depot.test:8082/artifactory/api/npm/npm/\n' +
        `//depot.test:8082/artifactory/api/npm/npm/:_auth=${btoa('jo:KEY')}\n` +
        '//depot.test:8082/artifactory/api/npm/npm/:always-auth=true\n',
    );
  });

  it('puts the credentials into server-generated settings too', () => {
    const server = {
      settings: `<password>${SNIPPET_SECRET}</password>`,
      distributionManagement: '',
    };
    const { read } = snippetsFor(
      'maven',
      { ...context, server },
      { userName: 'jo', secret: 'KEY' },
    );
    expect(read[0]!.text).toBe('<password>KEY</password>');
  });
});
