import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { $theme, themeToggled } from '../../design/theme/model';
import { $screens } from '../../engine/descriptors/model';
import { $anonAccessEnabled, $currentUser, $isAnonymous } from '../session/model';
import { LABELS, LOGIN_PATH, LOGOUT_PATH } from '../messages';
import { buildUserMenuLinks } from './menu';

/**
 * The toolbar's user menu: who is signed in, the theme switch, a link to each screen whose
 * descriptor asks for one (Edit Profile), Logout. A disclosure (button + panel) rather than
 * an ARIA menu: every entry is reachable with Tab, and Escape or a click outside closes it.
 */
export function UserMenu() {
  const [user, anonymous, theme, toggleTheme] = useUnit([
    $currentUser,
    $isAnonymous,
    $theme,
    themeToggled,
  ]);
  const [screens, anonAccessEnabled] = useUnit([$screens, $anonAccessEnabled]);
  const links = useMemo(
    () => buildUserMenuLinks(screens, user, anonAccessEnabled),
    [screens, user, anonAccessEnabled],
  );
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  if (anonymous) {
    return (
      <Link className="btn" to={LOGIN_PATH}>
        {LABELS.logIn}
      </Link>
    );
  }
  return (
    <div
      className="user-menu"
      ref={root}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          setOpen(false);
          root.current?.querySelector('button')?.focus();
        }
      }}
    >
      <button
        type="button"
        className="btn"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
      >
        <span className="visually-hidden">{LABELS.userMenu}: </span>
        {user?.name}
      </button>
      <div id={panelId} className="user-menu-panel" hidden={!open}>
        {user?.email && <p className="user-menu-email">{user.email}</p>}
        <label className="checkbox">
          <input
            type="checkbox"
            role="switch"
            checked={theme === 'dark'}
            onChange={() => toggleTheme()}
          />
          <span>{LABELS.darkTheme}</span>
        </label>
        {links.map((link) => (
          <Link key={link.route} className="btn" to={link.route} onClick={() => setOpen(false)}>
            {link.label}
          </Link>
        ))}
        <button type="button" className="btn" onClick={() => navigate(LOGOUT_PATH)}>
          {LABELS.logout}
        </button>
      </div>
    </div>
  );
}
