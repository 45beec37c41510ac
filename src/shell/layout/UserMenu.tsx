import { useMemo, useState } from 'react';
import { Button, Dialog, DialogTrigger, Popover } from 'react-aria-components';
import { Link, useNavigate } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { $theme, themeToggled } from '../../design/theme/model';
import { $screens } from '../../engine/descriptors/model';
import { $anonAccessEnabled, $currentUser, $isAnonymous } from '../session/model';
import { LABELS, LOGIN_PATH, LOGOUT_PATH } from '../messages';
import { buildUserMenuLinks } from './menu';

/**
 * The toolbar's user menu: who is signed in, the theme switch, a link to each screen whose
 * descriptor asks for one (Edit Profile), Logout. A button opening a non-modal dialog in a
 * popover (React Aria's DialogTrigger) rather than an ARIA menu, since a switch sits among
 * the entries: every entry is reachable with Tab, Escape or a click outside closes it and
 * the focus returns to the button.
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
  const navigate = useNavigate();

  if (anonymous) {
    return (
      <Link className="btn" to={LOGIN_PATH}>
        {LABELS.logIn}
      </Link>
    );
  }
  return (
    <DialogTrigger isOpen={open} onOpenChange={setOpen}>
      <Button className="btn">
        <span className="visually-hidden">{LABELS.userMenu}: </span>
        {user?.name}
      </Button>
      <Popover className="user-menu-panel" placement="bottom end" offset={4}>
        <Dialog className="user-menu-content" aria-label={LABELS.userMenu}>
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
          <button
            type="button"
            className="btn"
            onClick={() => {
              setOpen(false);
              navigate(LOGOUT_PATH);
            }}
          >
            {LABELS.logout}
          </button>
        </Dialog>
      </Popover>
    </DialogTrigger>
  );
}
