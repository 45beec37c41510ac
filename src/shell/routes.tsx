import { Navigate, type RouteObject } from 'react-router-dom';
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
import { AdminMenuPage } from './pages/AdminMenuPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { NotAcceptablePage } from './pages/NotAcceptablePage';
import { ServerErrorPage } from './pages/ServerErrorPage';
import { NotAuthorizedPage } from './pages/NotAuthorizedPage';
import { RouteErrorPage } from './pages/RouteErrorPage';
import { ADMIN_ROOT_TARGET, LOGIN_PATH, PAGE_TITLES } from './messages';

const title = (value: RouteHandle['title']): RouteHandle => ({ title: value });

/** Titles of screens come from their descriptors ("Users", "Edit User jo", "New Permission"). */
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

/**
 * The route table of the shell (spec 01 §2): sign-in pages, system pages and the layout.
 * Every screen, bespoke or generic, comes from the descriptors the server lists and is
 * resolved at `*`: the shell itself imports no feature.
 */
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
        path: 'authorization',
        element: <NotAuthorizedPage />,
        handle: title(PAGE_TITLES.notAuthorized),
      },
      {
        element: <ShellLayout />,
        children: [
          { index: true, element: <HomeRedirect /> },
          { path: 'home', element: <UserHomePage />, handle: title(PAGE_TITLES.home) },
          {
            path: 'admin',
            element: (
              <RequireAccess permission="admin">
                <Navigate to={ADMIN_ROOT_TARGET} replace />
              </RequireAccess>
            ),
          },
          {
            path: 'admin/menu',
            element: (
              <RequireAccess permission="admin">
                <AdminMenuPage />
              </RequireAccess>
            ),
            handle: title(PAGE_TITLES.adminMenu),
          },
          { path: '*', element: <DescriptorScreen />, handle: title(screenTitle) },
        ],
      },
    ],
  },
];
