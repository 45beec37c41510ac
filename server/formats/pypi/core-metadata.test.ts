import { describe, expect, it } from 'vitest';
import { parseCoreMetadata } from './core-metadata.ts';

describe('core metadata', () => {
  it('keys fields as twine names them, lists repeated ones, and takes the body as description', () => {
    const parsed = parseCoreMetadata(
      [
        'Metadata-Version: 2.1',
        'Name: demo',
        'Requires-Python: >=3.8',
        'Requires-Dist: one',
        'Requires-Dist: two>=2',
        'License: first line',
        '        second line',
        '',
        '# Demo',
        '',
        'Body text.',
      ].join('\r\n'),
    );
    expect(parsed).toEqual({
      fields: {
        metadata_version: '2.1',
        name: 'demo',
        requires_python: '>=3.8',
        requires_dist: ['one', 'two>=2'],
        license: 'first line\nsecond line',
      },
      description: '# Demo\n\nBody text.',
    });
  });

  it('takes an older header Description when there is no body', () => {
    const parsed = parseCoreMetadata(
      'Metadata-Version: 1.1\nName: old\nDescription: Line one\n        Line two\n',
    );
    expect(parsed.description).toBe('Line one\nLine two');
    expect(parsed.fields).toEqual({ metadata_version: '1.1', name: 'old' });
  });
});
