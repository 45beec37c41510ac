import { describe, expect, it } from 'vitest';
import { dependenciesOf, pypiRequirement, readmeFormat } from './dependencies.ts';

describe('PyPI requirements (PEP 508) as the Dependencies tab lists them', () => {
  it('reads a name, its extras, its specifier in either spelling and its marker', () => {
    expect(pypiRequirement('requests')).toEqual({ name: 'requests', range: '', scope: 'runtime' });
    expect(pypiRequirement('requests (>=2.0,<3)')).toEqual({
      name: 'requests',
      range: '>=2.0,<3',
      scope: 'runtime',
    });
    expect(pypiRequirement('PySocks!=1.5.7,>=1.5.6; extra == "socks"')).toEqual({
      name: 'PySocks',
      range: '!=1.5.7,>=1.5.6',
      scope: 'extra: socks',
    });
    expect(pypiRequirement('uvicorn[standard]>=0.20 ; python_version >= "3.8"')).toEqual({
      name: 'uvicorn',
      range: '[standard]>=0.20',
      scope: 'python_version >= "3.8"',
    });
    expect(pypiRequirement('  ;nothing')).toBeUndefined();
  });

  it('takes one Requires-Dist line or many, and nothing from other formats', () => {
    expect(dependenciesOf('pypi', { requires_dist: 'six' })).toEqual([
      { name: 'six', range: '', scope: 'runtime' },
    ]);
    expect(dependenciesOf('pypi', { requires_dist: ['a>=1', 'b'] }).map((d) => d.name)).toEqual([
      'a',
      'b',
    ]);
    expect(dependenciesOf('docker', { dependencies: { a: '1' } })).toEqual([]);
    expect(dependenciesOf('npm', { dependencies: ['not', 'a', 'map'] })).toEqual([]);
  });
});

describe("a readme's format", () => {
  it('is Markdown for npm unless the file says otherwise, and for PyPI only when declared', () => {
    expect(readmeFormat('npm', 'README.md')).toBe('markdown');
    expect(readmeFormat('npm', null)).toBe('markdown');
    expect(readmeFormat('npm', 'README.txt')).toBe('text');
    expect(readmeFormat('pypi', 'text/markdown; charset=UTF-8')).toBe('markdown');
    expect(readmeFormat('pypi', 'text/x-rst')).toBe('text');
    expect(readmeFormat('pypi', null)).toBe('text');
  });
});
