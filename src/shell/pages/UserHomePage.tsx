import { Link } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { $currentUser, $footer, $isAnonymous } from '../session/model';
import { ADMIN_MENU_PATH, PAGE_TITLES } from '../messages';

/** The home page (Home in the sidebar): what one can do with Depot today. */
export function UserHomePage() {
  const [user, anonymous, footer] = useUnit([$currentUser, $isAnonymous, $footer]);
  const origin = window.location.origin;
  return (
    <section aria-labelledby="home-title">
      <h1 id="home-title">{PAGE_TITLES.home}</h1>
      <p>
        {anonymous ? 'Welcome to ' : `Welcome, ${user?.name}, to `}
        {footer?.serverName || 'Depot'}.
      </p>
      <p>What you can do here today:</p>
      <ul>
        <li>
          Download artifacts with your package clients and scripts from{' '}
          <code>{origin}/artifactory/&lt;repository&gt;/&lt;path&gt;</code>
          {anonymous
            ? ', where anonymous access allows it.'
            : ', and deploy where your permissions allow it.'}
        </li>
        {!anonymous && (
          <li>
            Use your user name and password as basic authentication for those clients and scripts.
          </li>
        )}
        {!anonymous && (
          <li>
            Switch between the light and dark theme, and log out, from the menu under your name.
          </li>
        )}
        {user?.admin && (
          <li>
            Manage users and groups in the <Link to={ADMIN_MENU_PATH}>Administration</Link> area.
          </li>
        )}
      </ul>
      <p>The package, artifact browser and build screens are on their way.</p>
    </section>
  );
}
