import { useEffect, useRef, useState } from 'react';
import { useUnit } from 'effector-react';
// The toast parts are UNSTABLE_ in React Aria Components: package.json pins the library to
// an exact version so a minor release cannot change them under us (docs/adding-a-screen.md).
import {
  Button,
  Text,
  UNSTABLE_Toast as Toast,
  UNSTABLE_ToastContent as ToastContent,
  UNSTABLE_ToastQueue as ToastQueue,
  UNSTABLE_ToastRegion as ToastRegion,
} from 'react-aria-components';
import { $notifications, notificationDismissed, type Notification } from './model';
import { DISMISS_LABEL } from '../messages';
import './notifications.css';

/**
 * The toasts, drawn by React Aria's toast region: a landmark (F6 reaches it), each toast a
 * non-modal alert dialog named by its text, focus returned to the page when the last one
 * goes. The console's model stays the one source of which toasts exist and when they go
 * (`notificationShown` at every call site, the model's timers): this mirrors it into the
 * region's queue. Errors are alerts and interrupt; successes and infos are polite status
 * messages, as screen readers heard them before.
 */
export function Notifications() {
  const [notifications, dismiss] = useUnit([$notifications, notificationDismissed]);
  const queue = useMirroredQueue(notifications, dismiss);
  return (
    <ToastRegion queue={queue} className="notifications">
      {({ toast }) => (
        <Toast toast={toast} className={`notification notification-${toast.content.kind}`}>
          <ToastContent role={toast.content.kind === 'error' ? 'alert' : 'status'}>
            <Text slot="title" elementType="p">
              {toast.content.text}
            </Text>
          </ToastContent>
          <Button slot="close" className="btn-link" aria-label={DISMISS_LABEL}>
            ×
          </Button>
        </Toast>
      )}
    </ToastRegion>
  );
}

/**
 * A toast queue holding what the model lists: a new notification is added, one the model has
 * dropped (its time is up, or it was dismissed) is closed, and closing one in the region (its
 * × button) tells the model.
 */
function useMirroredQueue(notifications: Notification[], dismiss: (id: number) => void) {
  const [queue] = useState(() => new ToastQueue<Notification>());
  const shown = useRef(new Map<number, string>());
  useEffect(() => {
    const listed = new Set(notifications.map((n) => n.id));
    for (const [id, key] of shown.current) {
      if (listed.has(id)) continue;
      shown.current.delete(id);
      queue.close(key);
    }
    for (const notification of notifications) {
      if (shown.current.has(notification.id)) continue;
      const key = queue.add(notification, { onClose: () => dismiss(notification.id) });
      shown.current.set(notification.id, key);
    }
  }, [notifications, queue, dismiss]);
  return queue;
}
