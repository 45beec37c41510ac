/** The user profile's texts (admin/artifactory/user_profile; spec 01 §2, issue 5 item 5). */
export const PROFILE_PATH = '/admin/artifactory/user_profile';

export const PROFILE_LABELS = {
  title: 'User Profile',
  editProfile: 'Edit Profile',
  personal: 'Personal Settings',
  userName: 'User Name',
  email: 'Email Address',
  currentPassword: 'Current Password',
  save: 'Save',
  changePassword: 'Change Password',
  newPassword: 'New Password',
  retypePassword: 'Retype New Password',
  apiKey: 'API Key',
  noApiKey: 'No API key yet.',
  generateApiKey: 'Generate API Key',
  regenerateApiKey: 'Regenerate',
  revokeApiKey: 'Revoke',
  identityToken: 'Identity Token',
  identityTokenHint:
    'A token with your permissions, valid for a year. It is shown once: copy it now.',
  generateToken: 'Generate an Identity Token',
  mfa: 'Multi-Factor Authentication',
  mfaOn: 'MFA is on for your account.',
  mfaOff: 'MFA is off for your account.',
  mfaDisabled: 'MFA is turned off on this instance.',
  mfaEnforced: 'MFA is required on this instance.',
  setUpMfa: 'Set Up MFA',
  removeMfa: 'Remove MFA',
  copy: 'Copy',
} as const;

export const PROFILE_MESSAGES = {
  emailSaved: 'Profile updated successfully',
  passwordChanged: 'Password changed. Signing in with the new password…',
  apiKeyRevoked: 'API key revoked',
  mfaEnrolled: 'MFA is set up',
  mfaRemoved: 'MFA removed',
  revokeConfirm: 'Revoke your API key? Clients using it will stop working.',
} as const;
