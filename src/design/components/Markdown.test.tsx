import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Markdown } from './Markdown';

const show = (text: string) => render(<Markdown text={text} label="Readme" />).container;

describe('a README shown as Markdown', () => {
  it('renders headings, code, tables and links', () => {
    const shown = show(
      '# Title\n\nSome `code`.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n[docs](https://example.org/docs)',
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Title' })).toBeTruthy();
    expect(shown.querySelector('code')?.textContent).toBe('code');
    expect(screen.getByRole('table')).toBeTruthy();
    const link = screen.getByRole('link', { name: 'docs' });
    expect(link.getAttribute('href')).toBe('https://example.org/docs');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer nofollow');
  });

  it('never renders raw HTML: no script, no handler, no iframe', () => {
    const shown = show(
      'Hello <script>window.pwned = 1</script> <img src=x onerror="window.pwned = 2"> <iframe src="https://evil.test"></iframe>\n\n<div onclick="alert(1)">block</div>',
    );
    expect(shown.querySelector('script, iframe, [onerror], [onclick], .markdown div')).toBeNull();
    expect(shown.querySelector('img')).toBeNull();
    expect((window as unknown as { pwned?: number }).pwned).toBeUndefined();
  });

  it('drops javascript: links', () => {
    show('[click](javascript:alert(1))');
    const link = screen.getByText('click').closest('a');
    expect(link?.getAttribute('href') ?? '').not.toMatch(/javascript/i);
  });

  it('loads no image: each is a link the reader may follow, named by its alternative text', () => {
    const shown = show('![build status](https://badges.example/status.svg)\n\n![](x.png)');
    expect(shown.querySelector('img')).toBeNull();
    const badge = screen.getByRole('link', { name: 'Image: build status' });
    expect(badge.getAttribute('href')).toBe('https://badges.example/status.svg');
    expect(screen.getByRole('link', { name: 'Image: no description' })).toBeTruthy();
  });
});
