import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { errorMessage } from '../../api/errorMessage';
import { nativeBrowserApi, type NativeEntry } from '../../api/nativeBrowser';
import { NATIVE_LABELS as L, formatBytes, nativeHref, downloadHref } from './format';

interface Listing {
  entries: NativeEntry[];
  continueState?: string;
}

/**
 * The native browser at /native/{repoKey}/{path} (spec 02 §7 `/ui/nativeBrowser`): a plain
 * directory listing, folders linking deeper and files downloading, a page at a time.
 */
export default function NativeBrowserPage() {
  const splat = useParams()['*'] ?? '';
  const [repoKey = '', ...rest] = splat.split('/').filter(Boolean);
  const path = rest.join('/');
  const [listing, setListing] = useState<Listing | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  const load = async (continueState?: string) => {
    setLoading(true);
    try {
      const page = await nativeBrowserApi.list(repoKey, path, continueState);
      setListing((now) => ({
        entries: [...(continueState ? (now?.entries ?? []) : []), ...page.children],
        continueState: page.continueState,
      }));
      setError(null);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => {
    setListing(null);
    if (repoKey) void load();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reload when the place changes
  }, [repoKey, path]);

  const where = [repoKey, path].filter(Boolean).join('/');
  return (
    <section className="page native-browser">
      <h1>{L.title(where || L.noRepository)}</h1>
      {!repoKey && <p>{L.noRepository}</p>}
      {error && <p role="alert">{error}</p>}
      {listing && (
        <table className="data-table" aria-label={L.tableLabel(where)}>
          <thead>
            <tr>
              <th scope="col">{L.name}</th>
              <th scope="col">{L.modified}</th>
              <th scope="col">{L.size}</th>
            </tr>
          </thead>
          <tbody>
            {path && (
              <tr>
                <td colSpan={3}>
                  <Link to={nativeHref(repoKey, path.split('/').slice(0, -1).join('/'))}>
                    {L.parent}
                  </Link>
                </td>
              </tr>
            )}
            {listing.entries.map((entry) => (
              <tr key={entry.name}>
                <td>
                  {entry.folder ? (
                    <Link to={nativeHref(repoKey, `${path}/${entry.name}`)}>{entry.name}/</Link>
                  ) : (
                    <a href={downloadHref(entry.downloadPath ?? '')} download>
                      {entry.name}
                    </a>
                  )}
                </td>
                <td>{entry.lastModified ? new Date(entry.lastModified).toLocaleString() : '–'}</td>
                <td>{entry.size === undefined ? '–' : formatBytes(entry.size)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {listing && listing.entries.length === 0 && <p>{L.empty}</p>}
      {listing?.continueState && (
        <button
          type="button"
          className="btn"
          disabled={loading}
          onClick={() => void load(listing.continueState)}
        >
          {L.more}
        </button>
      )}
    </section>
  );
}
