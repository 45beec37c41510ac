import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { $screens } from '../../engine/descriptors/model';
import { TextField } from '../../design/components/TextField';
import { $anonAccessEnabled, $currentUser } from '../session/model';
import { buildMenu } from '../layout/menu';
import { filterMenuGroups, highlightParts } from '../layout/adminMenu';
import { ADMIN_MENU_TEXTS as T } from '../messages';

/** Marks the part of a label the search matched. */
function Highlighted({ label, term }: { label: string; term: string }) {
  return highlightParts(label, term).map((part, index) =>
    part.match ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>,
  );
}

/**
 * The admin menu page (spec 01 §2): every Administration screen this user may open, as
 * cards of grouped links, with a search that keeps the matching links and marks the match.
 */
export function AdminMenuPage() {
  const [screens, user, anonAccessEnabled] = useUnit([$screens, $currentUser, $anonAccessEnabled]);
  const [term, setTerm] = useState('');
  const groups = useMemo(
    () =>
      buildMenu(screens, user, anonAccessEnabled).find((s) => s.section === 'Administration')
        ?.groups ?? [],
    [screens, user, anonAccessEnabled],
  );
  const shown = filterMenuGroups(groups, term);
  return (
    <section className="admin-menu" aria-labelledby="admin-menu-title">
      <header className="page-header">
        <h1 id="admin-menu-title">{T.title}</h1>
      </header>
      <TextField
        label={T.search}
        type="search"
        value={term}
        onChange={(event) => setTerm(event.target.value)}
      />
      {shown.length === 0 && <p role="status">{T.noMatch}</p>}
      <div className="admin-menu-cards">
        {shown.map(({ group, items }) => (
          <section key={group} className="card" aria-label={group}>
            <h2>{group}</h2>
            <ul>
              {items.map((item) => (
                <li key={item.route}>
                  <Link to={item.route}>
                    <Highlighted label={item.label} term={term} />
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </section>
  );
}
