import { afterEach, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConfirmDialog } from './ConfirmDialog';
import { Dialog } from './Dialog';

afterEach(cleanup);

function Harness({ onClose }: { onClose: () => void }) {
  const [open, setOpen] = useState(false);
  const close = () => {
    onClose();
    setOpen(false);
  };
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      {open && (
        <Dialog
          title="Rename"
          onClose={close}
          actions={
            <>
              <button type="button" onClick={close}>
                Save
              </button>
              <button type="button" onClick={close}>
                Cancel
              </button>
            </>
          }
        >
          <label>
            New name
            <input />
          </label>
        </Dialog>
      )}
    </>
  );
}

describe('the design dialog (React Aria Modal and Dialog)', () => {
  it('is named by its title, focuses its first action, keeps Tab inside, closes on Escape', async () => {
    const onClose = vi.fn();
    render(<Harness onClose={onClose} />);
    const opener = screen.getByRole('button', { name: 'Open' });
    await userEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Rename' });
    // modal: the page behind is hidden from assistive technology
    expect(screen.queryByRole('button', { name: 'Open' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Save' }));
    // Tab cycles through the dialog's controls only
    const seen = new Set<string>();
    for (let step = 0; step < 4; step += 1) {
      await userEvent.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);
      seen.add(document.activeElement?.textContent || document.activeElement?.tagName || '');
    }
    expect(seen).toEqual(new Set(['Save', 'Cancel', 'INPUT']));
    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
    // React Aria gives the focus back on the next animation frame, after the dialog unmounts.
    await waitFor(() => expect(document.activeElement).toBe(opener));
  }, 30000);

  it('asks a yes/no question as an alert dialog; Escape cancels', async () => {
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    render(
      <ConfirmDialog
        title="Delete"
        text="Delete 2 items?"
        confirmLabel="Delete"
        cancelLabel="Cancel"
        danger
        onConfirm={onConfirm}
        onCancel={onCancel}
      />,
    );
    const dialog = screen.getByRole('alertdialog', { name: 'Delete' });
    expect(dialog.textContent).toContain('Delete 2 items?');
    await userEvent.keyboard('{Escape}');
    expect(onCancel).toHaveBeenCalledTimes(1);
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  }, 30000);
});
