import { SettingsScreen } from '../../engine/settings/SettingsScreen';
import type { ScreenComponentProps } from '../../engine/registry';
import { securityConfigModel } from './model';
import { SECURITY_LABELS } from './messages';

/**
 * Administration > Security > General: anonymous access, hiding unauthorized resources,
 * remember me, the lock policy, the password policy and MFA (docs/security-config.md). The
 * form comes from its descriptor and entity schema (schemas/); the calls and the saved
 * message are this page's.
 */
export default function SecurityConfigPage({ screen }: ScreenComponentProps) {
  return (
    <SettingsScreen
      screenId={screen.id}
      model={securityConfigModel}
      title={SECURITY_LABELS.title}
    />
  );
}
