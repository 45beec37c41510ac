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
}

export interface Footer {
  serverName: string;
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

export const authApi = {
  login: ({ user, password, rememberMe }: Credentials) =>
    call<CurrentUser>('POST', '/ui/auth/login', {
      json: { user, password, type: 'login' },
      searchParams: rememberMe ? { rememberMe: 'true' } : undefined,
    }),
  logout: () => call<void>('POST', '/ui/auth/logout'),
  current: () => call<CurrentUser>('GET', '/ui/auth/current'),
  footer: () => call<Footer>('GET', '/ui/auth/screen/footer'),
  loginRelatedData: () => call<LoginRelatedData>('GET', '/ui/auth/loginRelatedData'),
  changePassword: (change: PasswordChange) =>
    call<void>('POST', '/ui/auth/changePassword', { json: change }),
};
