import { useEffect } from 'react';
import { useUnit } from 'effector-react';
import { userActivityDetected } from '../session/model';

const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'mousemove', 'wheel', 'touchstart'] as const;
/** The model only needs to know about activity every so often, not on every mouse move. */
const THROTTLE_MS = 1000;

/** Reports user activity to the session model, which checks the session after idling. */
export function SessionActivityWatcher() {
  const activity = useUnit(userActivityDetected);
  useEffect(() => {
    let last = 0;
    const onActivity = () => {
      const now = Date.now();
      if (now - last < THROTTLE_MS) return;
      last = now;
      activity(now);
    };
    // Loading the page counts as activity: idling starts now.
    onActivity();
    ACTIVITY_EVENTS.forEach((type) => window.addEventListener(type, onActivity, { passive: true }));
    return () => ACTIVITY_EVENTS.forEach((type) => window.removeEventListener(type, onActivity));
  }, [activity]);
  return null;
}
