import { useUnit } from 'effector-react';
import { $notifications, notificationDismissed } from './model';
import { DISMISS_LABEL } from '../messages';
import './notifications.css';

/**
 * The toasts. The region is polite and always present, so screen readers announce each
 * new one; errors are alerts and interrupt.
 */
export function Notifications() {
  const [notifications, dismiss] = useUnit([$notifications, notificationDismissed]);
  return (
    <div className="notifications" aria-live="polite">
      {notifications.map((n) => (
        <div
          key={n.id}
          className={`notification notification-${n.kind}`}
          role={n.kind === 'error' ? 'alert' : 'status'}
        >
          <p>{n.text}</p>
          <button
            type="button"
            className="btn-link"
            onClick={() => dismiss(n.id)}
            aria-label={DISMISS_LABEL}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
