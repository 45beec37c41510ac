import { Navigate, Outlet, type RouteObject } from 'react-router-dom';
import { DescriptorScreen } from '../screens/DescriptorScreen';
import { resolveScreenView, screenViewTitle } from '../engine/screenPaths';
import type { RouteHandle, TitleContext } from './layout/documentTitle';
import { AppRoot } from './layout/AppRoot';
import { ShellLayout } from './layout/ShellLayout';
import { RequireAccess } from './guards/RequireAccess';
import { LoginLayout } from './login/LoginLayout';
import { LoginPage } from './login/LoginPage';
import { ChangePasswordPage } from './login/ChangePasswordPage';
import { OtpLoginPage } from './login/OtpLoginPage';
import { MfaEnrollPage } from './login/MfaEnrollPage';
import { ForgotPasswordPage } from './login/ForgotPasswordPage';
import { ResetPasswordPage } from './login/ResetPasswordPage';
import { InvitationPage } from './login/InvitationPage';
import { HomeRedirect } from './pages/HomeRedirect';
import { UserHomePage } from './pages/UserHomePage';
import { NotFoundPage } from './pages/NotFoundPage';
import { NotAcceptablePage } from './pages/NotAcceptablePage';
import { ServerErrorPage } from './pages/ServerErrorPage';
import { RouteErrorPage } from './pages/RouteErrorPage';
import { ADMIN_HOME_PATH, LOGIN_PATH, PAGE_TITLES } from './messages';
import { storageSummaryRoute } from '../custom/storage-summary/route';
import { repositoriesRoutes, repositoryLayoutRoutes } from '../custom/repositories/route';
import { projectAdminRoutes, projectSettingsRoutes } from '../custom/projects/route';
import { RequireProjectAdmin } from './guards/RequireProjectAdmin';
import { maintenanceRoute } from '../custom/maintenance/route';
import { treeBrowserRoutes } from '../custom/tree-browser/route';
import { packagesRoutes } from '../custom/packages/route';
import { searchRoutes } from '../custom/search/route';
import { permissionCreateRoute, permissionsRoutes } from '../custom/permissions-editor/route';
import { userProfileRoute } from '../custom/user-profile/route';
import { npmLoginRoute } from '../custom/npm-login/route';
import { securityConfigRoute } from '../custom/security-config/route';
import { mailConfigRoute } from '../custom/mail-config/route';
import { inviteUserRoute } from '../custom/invite-user/route';
import { accessTokensRoute } from '../custom/access-tokens/route';

const title = (value: RouteHandle['title']): RouteHandle => ({ title: value });

/** Titles of descriptor pages come from the descriptors ("Users", "Edit User jo"). */
const screenTitle = ({ pathname, screens, descriptors }: TitleContext) => {
  const view = resolveScreenView(pathname, screens);
  return view && screenViewTitle(view, descriptors[view.screen.id]);
};

const loginChildren: RouteObject[] = [
  { index: true, element: <LoginPage />, handle: title(PAGE_TITLES.login) },
  {
    path: 'change-password/:userName',
    element: <ChangePasswordPage />,
    handle: title(PAGE_TITLES.changePassword),
  },
  { path: 'otp-login', element: <OtpLoginPage />, handle: title(PAGE_TITLES.otpLogin) },
  { path: 'mfa-enroll', element: <MfaEnrollPage />, handle: title(PAGE_TITLES.mfaEnroll) },
  {
    path: 'forgot-password',
    element: <ForgotPasswordPage />,
    handle: title(PAGE_TITLES.forgotPassword),
  },
  {
    path: 'reset-password',
    element: <ResetPasswordPage />,
    handle: title(PAGE_TITLES.resetPassword),
  },
  { path: 'invitation', element: <InvitationPage />, handle: title(PAGE_TITLES.invitation) },
];

/** The route table of what exists today (spec 01 §2); descriptor screens are resolved at `*`. */
export const routes: RouteObject[] = [
  {
    element: <AppRoot />,
    errorElement: <RouteErrorPage />,
    children: [
      { path: 'login', element: <LoginLayout />, children: loginChildren },
      { path: 'auth', element: <LoginLayout />, children: loginChildren },
      { path: 'logout', element: <Navigate to={`${LOGIN_PATH}?logout=true`} replace /> },
      { path: '404', element: <NotFoundPage />, handle: title(PAGE_TITLES.notFound) },
      {
        path: '406/:requestId',
        element: <NotAcceptablePage />,
        handle: title(PAGE_TITLES.notAcceptable),
      },
      { path: '500', element: <ServerErrorPage />, handle: title(PAGE_TITLES.serverError) },
      {
        element: <ShellLayout />,
        children: [
          { index: true, element: <HomeRedirect /> },
          { path: 'home', element: <UserHomePage />, handle: title(PAGE_TITLES.home) },
          ...treeBrowserRoutes,
          ...packagesRoutes,
          ...searchRoutes,
          userProfileRoute,
          npmLoginRoute,
          {
            path: 'admin',
            children: [
              {
                // The admin area is for admins, whether or not a screen exists at the path...
                element: (
                  <RequireAccess permission="admin">
                    <Outlet />
                  </RequireAccess>
                ),
                children: [
                  { index: true, element: <Navigate to={ADMIN_HOME_PATH} replace /> },
                  storageSummaryRoute,
                  ...repositoryLayoutRoutes,
                  ...projectAdminRoutes,
                  maintenanceRoute,
                  permissionCreateRoute,
                  securityConfigRoute,
                  mailConfigRoute,
                  inviteUserRoute,
                  accessTokensRoute,
                  { path: '*', element: <DescriptorScreen />, handle: title(screenTitle) },
                ],
              },
              {
                // ...but for the permission targets a user manages (spec 01 §6)...
                element: (
                  <RequireAccess permission="manager">
                    <Outlet />
                  </RequireAccess>
                ),
                children: permissionsRoutes,
              },
              {
                // ...and for what a project admin does in their project (spec 01 §6).
                element: (
                  <RequireProjectAdmin>
                    <Outlet />
                  </RequireProjectAdmin>
                ),
                children: [...repositoriesRoutes, ...projectSettingsRoutes],
              },
            ],
          },
          { path: '*', element: <DescriptorScreen />, handle: title(screenTitle) },
        ],
      },
    ],
  },
];
