import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { $currentUser } from '../../shell/session/model';
import { ARCHIVE_SEARCH_PATH } from '../retention/messages';
import { archiveQueryOf } from '../retention/range';
import { Select } from '../../design/components/Select';
import { BUILDS_PATH } from '../builds/messages';
import { PACKAGES_PATH } from '../packages/messages';
import { SEARCH_LABELS as L, SEARCH_RESULTS_PATH } from './messages';
import { searchSubmitted } from './model';
import { parseSearchText, toQueryString, type SearchParams } from './query';
import { availableScopes, DEPOT_SCOPE_CONDITIONS, type SearchScope as Scope } from './scopes';

/**
 * The toolbar's search (spec 01 §2 scopes): artifacts run a quick search (a checksum-length
 * hex term a checksum search) on the results page; packages and builds open their list's
 * search (`global-search/builds`); Archive (administrators: the archive holds every repository's
 * items) opens the archive search with the text as AQL, or as a name with wildcards. Scopes whose
 * services Depot does not run (release bundles, security, pipelines) are not offered (./scopes.ts).
 */
export function ToolbarSearch() {
  const navigate = useNavigate();
  const [scope, setScope] = useState<Scope>('artifacts');
  const [text, setText] = useState('');
  const archiveIndexed = useUnit($currentUser)?.admin === true;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (scope === 'archive' && archiveIndexed && text.trim()) {
      navigate(`${ARCHIVE_SEARCH_PATH}?${new URLSearchParams({ aql: archiveQueryOf(text) })}`);
      return;
    }
    const parsed = parseSearchText(text);
    if (!parsed.name && !parsed.checksum) return;
    if (scope === 'builds') {
      navigate(`${BUILDS_PATH}?${new URLSearchParams({ name: parsed.name ?? text.trim() })}`);
      return;
    }
    if (scope === 'packages') {
      navigate(`${PACKAGES_PATH}?${new URLSearchParams({ name: parsed.name ?? '' })}`);
      return;
    }
    const searchType = parsed.checksum ? 'checksum' : 'quick';
    const params: SearchParams = { ...parsed, searchType };
    searchSubmitted(params);
    navigate(`${SEARCH_RESULTS_PATH}?${toQueryString(params)}`);
  };
  return (
    <form className="toolbar-search" role="search" onSubmit={submit}>
      <Select
        label={L.toolbarScope}
        hideLabel
        className="toolbar-scope"
        options={availableScopes({ ...DEPOT_SCOPE_CONDITIONS, admin: archiveIndexed }).map(
          (id) => ({ value: id, label: L.scopes[id] }),
        )}
        value={scope}
        onChange={setScope}
      />
      <input
        type="search"
        aria-label={L.toolbarSearch}
        placeholder={L.toolbarSearch}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
    </form>
  );
}
