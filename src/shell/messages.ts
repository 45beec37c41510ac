/**
 * The shell's texts, paths and limits. Quoted ones are spec 01 verbatim (§2, §4, §8, §9);
 * UI and tests both read them from here.
 */
export const NOT_AUTHORIZED_MESSAGE = 'You are not authorized to view this page';
export const PASSWORDS_MUST_BE_EQUAL = 'Password fields must be equal';
export const CHANGE_PASSWORD_FAILED = 'Failed to change password';
/** Spec 01 §8: forgot and reset password failures. */
export const EMAIL_NOT_SENT = "Email wasn't sent";
export const RESET_PASSWORD_FAILED = 'Failed to reset the password';
export const NOT_FOUND_TEXT = 'The object you were looking for could not be found.';

/** A page of a companion service Depot does not run (./unavailableServices.ts). */
export const SERVICE_UNAVAILABLE_TEXTS = {
  title: (feature: string) => `${feature} is not available`,
  text: (feature: string, service: string) =>
    `${feature} needs the ${service} service, which this Depot does not run.`,
} as const;

export const ERROR_DIALOG = {
  header: 'Oops!',
  subheader: 'Something went wrong',
  text: 'An unexpected error has occurred and your request could not be completed.',
  advice: 'Please try again and in case this problem persists contact your system administrator.',
  seeMore: 'See more details',
  close: 'Close',
  details: { message: 'Message', status: 'Status', request: 'Request', time: 'Time' },
} as const;

export const DISCARD_DIALOG = {
  title: 'Discard Changes',
  text: 'You have unsaved changes. Leaving this page will discard changes.',
  discard: 'Discard',
  cancel: 'Cancel',
} as const;

/** Spec 01 §9: after this much inactivity, the next activity checks the session. */
export const IDLE_TIMEOUT_MS = 60000;

export const LOGIN_PATH = '/login';
export const LOGOUT_PATH = '/logout';
export const NOT_FOUND_PATH = '/404';
export const SERVER_ERROR_PATH = '/500';
export const SESSION_EXPIRED_PATH = '/login?logout=true&fromUnauthorized=true';
export const OTP_LOGIN_PATH = '/login/otp-login';
export const FORGOT_PASSWORD_PATH = '/login/forgot-password';
export const MFA_ENROLL_PATH = '/login/mfa-enroll';
/** Spec 01 §8: an OTP failure without a message of its own. */
export const OTP_FAILED = 'something went wrong';
export const changePasswordPath = (userName: string) =>
  `/login/change-password/${encodeURIComponent(userName)}`;
/**
 * Landing pages (spec 01 §2): admins land on the topology (in the quick setup while it is
 * offered, docs/onboarding.md), users on packages. The home page, which says what one can
 * do with Depot, stays at HOME_PAGE_PATH, under Home in the sidebar.
 */
/** The admin area: for admins, but for the screens whose descriptors say otherwise. */
export const ADMIN_AREA_PATH = '/admin';
/** Spec 01 §2: `/admin` itself redirects to the users list. */
export const ADMIN_ROOT_TARGET = '/admin/management/users';
export const ADMIN_HOME_PATH = '/admin/mission_control/topology';
/** The admin menu page: every admin screen as cards of grouped links. */
export const ADMIN_MENU_PATH = '/admin/menu';
export const QUICK_SETUP_PATH = '/quick-setup';
/** The personalisation wizard (spec 01 §2 "onboarding page"), before the quick setup. */
export const ONBOARDING_PATH = '/onboarding';
export const USER_HOME_PATH = '/packages';
export const HOME_PAGE_PATH = '/home';

export const LABELS = {
  productName: 'Depot',
  username: 'Username',
  password: 'Password',
  rememberMe: 'Remember me',
  logIn: 'Log In',
  logout: 'Logout',
  currentPassword: 'Current Password',
  newPassword: 'New Password',
  retypeNewPassword: 'Retype New Password',
  changePassword: 'Change Password',
  application: 'Application',
  administration: 'Administration',
  projectSettings: 'Project Settings',
  projectSelector: 'Project',
  allProjects: 'All',
  home: 'Home',
  userMenu: 'User menu',
  quickActions: 'Quick Actions',
  darkTheme: 'Dark theme',
  mainNavigation: 'Main navigation',
  skipToContent: 'Skip to content',
  customMessage: 'Message from the administrator',
  loading: 'Loading…',
  verificationCode: 'Verification code',
  verify: 'Verify',
  backToLogin: 'Back to login',
  mfaSecret: 'Secret key',
  passwordRules: 'The password needs',
  forgotPasswordLink: 'Forgot password?',
  sendResetLink: 'Send Reset Link',
  setPassword: 'Set Password',
  resetFor: 'New password for',
  invitedAs: 'Choose a password for your account',
} as const;

export const MFA_TEXTS = {
  otpPrompt: 'Enter the six-digit code your authenticator app shows for Depot.',
  enrollPrompt:
    'Scan this QR code with an authenticator app (Google Authenticator, Aegis, 1Password and others), or type the secret key into it, then enter the code it shows.',
  qrAlt: 'QR code for the authenticator app',
  enrollForm: 'MFA enrollment',
} as const;

export const DISMISS_LABEL = 'Dismiss';

/** The admin menu page: the Administration area's cards. */
export const ADMIN_MENU_TEXTS = {
  title: 'Administration',
  search: 'Search administration',
  noMatch: 'No administration page matches the search',
} as const;

export const PAGE_TITLES = {
  login: 'Login',
  changePassword: 'Change Password',
  otpLogin: 'Verification Code',
  forgotPassword: 'Forgot Password',
  resetPassword: 'Reset Password',
  invitation: 'Welcome to Depot',
  mfaEnroll: 'Set Up MFA',
  home: 'Home',
  notFound: 'Page Not Found',
  notAcceptable: 'Not Acceptable',
  serverError: 'Error',
  notAuthorized: 'Not Authorized',
  adminMenu: 'Administration',
} as const;
