import { call } from './client';

/** GET /ui/auth/current; for no session: `{name:"anonymous", anonymous:true, admin:false, anonAccessEnabled}`. */
export interface CurrentUser {
  name: string;
  email?: string;
  admin: boolean;
  anonymous: boolean;
  anonAccessEnabled?: boolean;
  disableUIAccess?: boolean;
  realm?: string;
  profileUpdatable?: boolean;
  passwordExpired?: boolean;
  groups?: string[];
  /** An admin, or a user who manages a permission target (spec 01 §6). */
  canManagePermissions?: boolean;
}

export interface Footer {
  serverName: string;
  /** The banner an admin turned on in the general configuration, shown on every page. */
  customMessage?: { message: string; color: string };
  versionID: string;
  revision?: string;
  buildNumber?: string;
  licenseType?: string;
  isAol: boolean;
  anonAccessEnabled: boolean;
}

export interface LoginRelatedData {
  forgotPassword: boolean;
  rememberMeEnabled: boolean;
  ssoProviderLink?: string;
  oauthProviders: Array<{ name: string; type: string; url: string; icon?: string }>;
}

export interface Credentials {
  user: string;
  password: string;
  rememberMe?: boolean;
}

export interface PasswordChange {
  userName: string;
  oldPassword: string;
  newPassword1: string;
  newPassword2: string;
}

/** Login's answer when the password was right and a code must follow (docs/mfa.md). */
export interface MfaChallenge {
  mfaStatus: 'ENROLL' | 'VERIFY';
  mfaAuthenticator: string;
}

export type LoginAnswer = CurrentUser | MfaChallenge;

export const isMfaChallenge = (answer: LoginAnswer): answer is MfaChallenge =>
  'mfaStatus' in answer;

/** A secret offered by the enroll call: for typing, as a URI and as an SVG QR code. */
export interface MfaEnrollment {
  secret: string;
  otpauthUri: string;
  qrCode: string;
}

export interface MfaStatusView {
  enabled: boolean;
  enforced: boolean;
  enrolled: boolean;
}

export const authApi = {
  login: ({ user, password, rememberMe }: Credentials) =>
    call<LoginAnswer>('POST', '/ui/auth/login', {
      json: { user, password, type: 'login' },
      searchParams: rememberMe ? { rememberMe: 'true' } : undefined,
    }),
  logout: () => call<void>('POST', '/ui/auth/logout'),
  current: () => call<CurrentUser>('GET', '/ui/auth/current'),
  footer: () => call<Footer>('GET', '/ui/auth/screen/footer'),
  loginRelatedData: () => call<LoginRelatedData>('GET', '/ui/auth/loginRelatedData'),
  changePassword: (change: PasswordChange) =>
    call<void>('POST', '/ui/auth/changePassword', { json: change }),
  passwordPolicy: () => call<{ rules: string[] }>('GET', '/ui/auth/passwordPolicy'),
  forgotPassword: (user: string) =>
    call<{ info: string }>('POST', '/ui/auth/forgotpassword', { json: { user } }),
  validateResetKey: (key: string) =>
    call<{ user: string }>('GET', '/ui/auth/validatetoken', { searchParams: { key } }),
  resetPassword: ({ key, password }: { key: string; password: string }) =>
    call<{ user: string }>('POST', '/ui/auth/resetpassword', {
      searchParams: { key },
      json: { password },
    }),
  verifyInvitation: (token: string) =>
    call<{ username: string }>('POST', '/access/token/verify', { json: { token } }),
  acceptInvitation: ({ token, password }: { token: string; password: string }) =>
    call<{ user: string }>('POST', '/access/entities/users/invited/setPassword', {
      json: { token, password },
    }),
};

/** MFA calls (spec 01 §7 Auth: /auth/mfa/enroll/ and /auth/mfa/verify/). */
export const mfaApi = {
  verify: (otp: string) => call<CurrentUser>('POST', '/auth/mfa/verify', { json: { otp } }),
  enrollment: () => call<MfaEnrollment>('GET', '/auth/mfa/enroll'),
  /** Signed in already: answers `{mfaEnrolled: true}`; from a pending sign-in: the user. */
  confirmEnrollment: (otp: string) =>
    call<CurrentUser | { mfaEnrolled: true }>('POST', '/auth/mfa/enroll', { json: { otp } }),
  status: () => call<MfaStatusView>('GET', '/auth/mfa/status'),
  remove: (otp: string) => call<void>('POST', '/auth/mfa/remove', { json: { otp } }),
};
