const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

export interface ListingEntry {
  name: string;
  folder: boolean;
  size: number;
  modified_at: Date;
}

/** The simple HTML page a folder answers with, as build tools and people browse it. */
export function folderListingHtml(
  title: string,
  entries: ListingEntry[],
  truncatedAt?: number,
): string {
  const rows = entries.map((entry) => {
    const name = entry.folder ? `${entry.name}/` : entry.name;
    const href = encodeURIComponent(entry.name) + (entry.folder ? '/' : '');
    const size = entry.folder ? '-' : String(entry.size);
    return `<a href="${href}">${escapeHtml(name)}</a>  ${new Date(entry.modified_at).toISOString()}  ${size}`;
  });
  const note = truncatedAt ? `\n(only the first ${truncatedAt} entries are listed)` : '';
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Index of ${escapeHtml(title)}</title></head>
<body><h1>Index of ${escapeHtml(title)}</h1><pre><a href="../">../</a>
${rows.join('\n')}${note}
</pre></body></html>
`;
}
