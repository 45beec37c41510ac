import { useMemo } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { $screens } from '../../engine/descriptors/model';
import { $anonAccessEnabled, $currentUser } from '../session/model';
import { ADMIN_MENU_PATH, HOME_PAGE_PATH, LABELS } from '../messages';
import { buildMenu, buildProjectMenu, type MenuGroup } from './menu';
import { $projectSettingsMode } from '../project/model';

/**
 * The Application and Administration menus, from the screen descriptors only. With one
 * project selected, Project Settings takes Administration's place (spec 01 §2 Sidebar).
 */
export function Sidebar() {
  const [screens, user, anonAccessEnabled, projectMode] = useUnit([
    $screens,
    $currentUser,
    $anonAccessEnabled,
    $projectSettingsMode,
  ]);
  const sections = useMemo(
    () => buildMenu(screens, user, anonAccessEnabled),
    [screens, user, anonAccessEnabled],
  );
  const projectGroups = useMemo(() => buildProjectMenu(screens), [screens]);
  const groupsOf = (section: string) => sections.find((s) => s.section === section)?.groups ?? [];
  const administration = groupsOf('Administration');
  return (
    <nav className="sidebar" aria-label={LABELS.mainNavigation}>
      <section>
        <h2>{LABELS.application}</h2>
        <ul>
          <li>
            <NavLink to={HOME_PAGE_PATH}>{LABELS.home}</NavLink>
          </li>
        </ul>
        <MenuGroups groups={groupsOf('Application')} />
      </section>
      {projectMode ? (
        <section>
          <h2>{LABELS.projectSettings}</h2>
          <MenuGroups groups={projectGroups} />
        </section>
      ) : (
        administration.length > 0 && (
          <section>
            <h2>
              {user?.admin ? (
                <Link to={ADMIN_MENU_PATH}>{LABELS.administration}</Link>
              ) : (
                LABELS.administration
              )}
            </h2>
            <MenuGroups groups={administration} />
          </section>
        )
      )}
    </nav>
  );
}

function MenuGroups({ groups }: { groups: MenuGroup[] }) {
  return groups.map(({ group, items }) => (
    <div key={group}>
      <h3>{group}</h3>
      <ul>
        {items.map((item) => (
          <li key={item.route}>
            <NavLink to={item.route}>{item.label}</NavLink>
          </li>
        ))}
      </ul>
    </div>
  ));
}
