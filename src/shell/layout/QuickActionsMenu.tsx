import { useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { ActionMenu } from '../../design/components/ActionMenu';
import { $screens } from '../../engine/descriptors/model';
import { $anonAccessEnabled, $currentUser } from '../session/model';
import { LABELS } from '../messages';
import { buildQuickActions, setMeUpRequested } from './quickActions';

/** The toolbar's quick actions menu (spec 01 §2), for whoever is signed in. */
export function QuickActionsMenu() {
  const [screens, user, anonAccessEnabled, requestSetMeUp] = useUnit([
    $screens,
    $currentUser,
    $anonAccessEnabled,
    setMeUpRequested,
  ]);
  const actions = useMemo(
    () => buildQuickActions(screens, user, anonAccessEnabled),
    [screens, user, anonAccessEnabled],
  );
  const navigate = useNavigate();
  if (actions.length === 0) return null;
  return (
    <ActionMenu
      label={LABELS.quickActions}
      items={actions}
      onAction={(id) => {
        const action = actions.find((a) => a.id === id);
        if (action?.route) navigate(action.route);
        else requestSetMeUp();
      }}
    />
  );
}
