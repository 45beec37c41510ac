import { SettingsFormPage } from '../settings-form/SettingsFormPage';
import { securityConfigModel } from './model';
import { SECURITY_LABELS } from './messages';
import { securityConfigSchema } from './schema';

/**
 * Administration > Security > General: anonymous access, hiding unauthorized resources,
 * remember me, the lock policy, the password policy and MFA (docs/security-config.md).
 */
export default function SecurityConfigPage() {
  return (
    <SettingsFormPage
      title={SECURITY_LABELS.title}
      model={securityConfigModel}
      schema={securityConfigSchema}
    />
  );
}
