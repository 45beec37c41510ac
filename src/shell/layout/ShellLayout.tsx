import { Outlet } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { $footer } from '../session/model';
import { RequireAccess } from '../guards/RequireAccess';
import { LABELS } from '../messages';
import { Sidebar } from './Sidebar';
import { Toolbar } from './Toolbar';
import './shell.css';

/**
 * Toolbar, sidebar and the page. Everything inside needs at least anonymous access, so a
 * visitor of an instance without anonymous access is sent to login first.
 */
export function ShellLayout() {
  const footer = useUnit($footer);
  return (
    <RequireAccess permission="anonymous">
      <div className="shell">
        <a className="skip-link" href="#main">
          {LABELS.skipToContent}
        </a>
        <Toolbar />
        {footer?.customMessage && (
          <aside
            className="shell-banner"
            aria-label={LABELS.customMessage}
            style={{ backgroundColor: footer.customMessage.color }}
          >
            {footer.customMessage.message}
          </aside>
        )}
        <div className="shell-body">
          <div className="shell-side">
            <Sidebar />
            {footer && (
              <p className="shell-version">
                {LABELS.productName} {footer.versionID}
              </p>
            )}
          </div>
          <main id="main" className="shell-main" tabIndex={-1}>
            <Outlet />
          </main>
        </div>
      </div>
    </RequireAccess>
  );
}
