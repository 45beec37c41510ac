import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { $currentUser } from '../../shell/session/model';
import { Select } from '../../design/components/Select';
import { SEARCH_LABELS as L } from './messages';
import { searchSubmitted } from './model';
import { availableScopes, DEPOT_SCOPE_CONDITIONS, type SearchScope as Scope } from './scopes';
import { toolbarSearchTarget } from './toolbarTargets';

/**
 * The toolbar's search (spec 01 §2 scopes): the scopes Depot serves (./scopes.ts), each going
 * where ./toolbarTargets.ts says; services Depot does not run (release bundles, security,
 * pipelines) are not offered.
 */
export function ToolbarSearch() {
  const navigate = useNavigate();
  const [scope, setScope] = useState<Scope>('artifacts');
  const [text, setText] = useState('');
  const archiveIndexed = useUnit($currentUser)?.admin === true;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const target = toolbarSearchTarget(scope, text, archiveIndexed);
    if (!target) return;
    if (target.artifactSearch) searchSubmitted(target.artifactSearch);
    navigate(target.to);
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
