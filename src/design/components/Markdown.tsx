import type { ComponentProps } from 'react';
import ReactMarkdown, { defaultUrlTransform } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import './markdown.css';

/**
 * A package's own text (a README) rendered as Markdown, safe to show whoever wrote it
 * (docs/package-browser.md, "Readme"):
 * - raw HTML in the Markdown is never rendered (react-markdown builds React elements and, with
 *   no rehype-raw, shows HTML as text), so no script, style or event handler gets through;
 * - links keep only safe protocols (react-markdown's URL transform drops `javascript:` and
 *   the like) and open outside the console with no referrer and no opener;
 * - images are not loaded: a remote image would tell its host who read the page and when (and
 *   the console's Content-Security-Policy allows only its own images). Each shows as a link
 *   with its alternative text, which the reader may follow on purpose.
 */
export function Markdown({ text, label }: { text: string; label: string }) {
  return (
    <div className="markdown" role="document" aria-label={label}>
      <ReactMarkdown remarkPlugins={[remarkGfm]} components={COMPONENTS} skipHtml>
        {text}
      </ReactMarkdown>
    </div>
  );
}

type Components = NonNullable<ComponentProps<typeof ReactMarkdown>['components']>;

const COMPONENTS: Components = {
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  ),
  img: ({ src, alt }) => {
    const safe = typeof src === 'string' ? defaultUrlTransform(src) : '';
    const text = `Image: ${alt || 'no description'}`;
    return safe ? (
      <a className="markdown-image" href={safe} target="_blank" rel="noopener noreferrer nofollow">
        {text}
      </a>
    ) : (
      <span className="markdown-image">{text}</span>
    );
  },
};
