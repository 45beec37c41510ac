/** The Config Descriptor and Security Descriptor pages' words (spec 03 "Other configuration pages"). */
export const CONFIG_DESCRIPTOR_LABELS = {
  configTitle: 'Config Descriptor',
  securityTitle: 'Security Descriptor',
  configWarning:
    'Editing the configuration XML directly can be harmful: a mistake can leave Depot unusable. Saving applies the whole document at once, or nothing when any part of it is refused.',
  securityWarning:
    'The security descriptor is read-only. Change security settings on the Security Configuration page.',
  editor: 'Configuration XML',
  securityXml: 'Security XML',
  save: 'Save',
  reset: 'Reset',
  loading: 'Loading…',
  fetchFailed: 'The configuration could not be loaded',
  saveFailed: 'The configuration could not be saved',
  securityFailed: 'The security descriptor could not be loaded',
} as const;
