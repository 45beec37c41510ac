import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import './design/tokens.css';
import './design/base.css';
import { routes } from './shell/routes';
import { attachRouter } from './shell/navigation/model';
import { appStarted } from './shell/session/model';
import './shell/model';
import { systemThemeChanged, themeStarted } from './design/theme/model';
import { ConsoleExtensions } from './screens/ConsoleExtensions';
import { reloadSchemasOnChange } from './engine/descriptors/devReload';

/** The console is served under /ui/; routes in the table are relative to it. */
const router = createBrowserRouter(routes, { basename: '/ui' });
attachRouter(router);

themeStarted();
window
  .matchMedia?.('(prefers-color-scheme: dark)')
  .addEventListener('change', (event) => systemThemeChanged(event.matches ? 'dark' : 'light'));
appStarted();
reloadSchemasOnChange();

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <ConsoleExtensions>
      <RouterProvider router={router} />
    </ConsoleExtensions>
  </StrictMode>,
);
