import { useState } from 'react';

/**
 * Copies a text to the clipboard and says so ("Copied"); names what it copies for assistive
 * technology. Where the clipboard is unavailable (an insecure origin) the text stays
 * selectable beside it.
 */
export function CopyButton({ text, what }: { text: string; what: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard?.writeText(text).catch(() => undefined);
    setCopied(true);
  };
  return (
    <button
      type="button"
      className="btn btn-link"
      aria-label={`Copy ${what}`}
      onClick={copy}
      onBlur={() => setCopied(false)}
    >
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}
