import { useCallback, useEffect } from 'react';
import { useBlocker, type BlockerFunction } from 'react-router-dom';
import { ConfirmDialog } from '../../design/components/ConfirmDialog';
import { DISCARD_DIALOG } from '../messages';
import { leaveNeedsConfirmation } from './leaveGuard';

interface UnsavedChangesGuardProps {
  /**
   * Read at the moment of leaving, not at render: a model that saves and navigates in one
   * step is clean before React re-renders.
   */
  isDirty: () => boolean;
  /** The question, when an area words it its own way (spec 03 §5: repositories). */
  text?: string;
}

/**
 * Asks "Discard Changes" before leaving a form with changed data (spec 01 §4). Also asks
 * the browser to confirm closing or reloading the tab.
 */
export function UnsavedChangesGuard({ isDirty, text }: UnsavedChangesGuardProps) {
  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) =>
      isDirty() && leaveNeedsConfirmation(currentLocation.pathname, nextLocation.pathname),
    [isDirty],
  );
  const blocker = useBlocker(shouldBlock);

  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (isDirty()) event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [isDirty]);

  if (blocker.state !== 'blocked') return null;
  return (
    <ConfirmDialog
      title={DISCARD_DIALOG.title}
      text={text ?? DISCARD_DIALOG.text}
      confirmLabel={DISCARD_DIALOG.discard}
      cancelLabel={DISCARD_DIALOG.cancel}
      danger
      onConfirm={() => blocker.proceed()}
      onCancel={() => blocker.reset()}
    />
  );
}
