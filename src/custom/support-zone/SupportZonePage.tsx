import { useEffect } from 'react';
import { useUnit } from 'effector-react';
import { ConfirmDialog } from '../../design/components/ConfirmDialog';
import { EmptyState } from '../../design/components/EmptyState';
import { BundlesTable } from './BundlesTable';
import { CreateBundleDialog } from './CreateBundleDialog';
import {
  $bundles,
  $createError,
  $createOpen,
  $creating,
  $deleting,
  $loaded,
  createClosed,
  createOpened,
  createSubmitted,
  deleteCancelled,
  deleteClicked,
  deleteConfirmed,
  pageMounted,
  pageUnmounted,
} from './model';
import { SUPPORT_ZONE_LABELS as L } from './messages';
import './support-zone.css';

/** Support bundles: create, follow, download, delete (spec 02; docs/support-bundles.md). */
export default function SupportZonePage() {
  const [bundles, loaded, createOpen, createError, creating, deleting] = useUnit([
    $bundles,
    $loaded,
    $createOpen,
    $createError,
    $creating,
    $deleting,
  ]);
  const events = useUnit({
    pageMounted,
    pageUnmounted,
    createOpened,
    createClosed,
    createSubmitted,
    deleteClicked,
    deleteConfirmed,
    deleteCancelled,
  });
  const { pageMounted: mounted, pageUnmounted: unmounted } = events;
  useEffect(() => {
    mounted();
    return () => unmounted();
  }, [mounted, unmounted]);

  return (
    <section className="support-zone" aria-labelledby="support-zone-title">
      <header className="page-header">
        <h1 id="support-zone-title">{L.title}</h1>
        <button type="button" className="btn btn-primary" onClick={() => events.createOpened()}>
          {L.create}
        </button>
      </header>
      <p>{L.intro}</p>
      {loaded && bundles.length === 0 ? (
        <EmptyState title={L.noBundlesTitle} text={L.noBundles} />
      ) : (
        <BundlesTable bundles={bundles} onDelete={events.deleteClicked} />
      )}
      {createOpen && (
        <CreateBundleDialog
          serverError={createError}
          busy={creating}
          onSubmit={events.createSubmitted}
          onClose={() => events.createClosed()}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={L.deleteTitle}
          text={L.deleteText(deleting.name)}
          confirmLabel={L.delete}
          cancelLabel={L.cancel}
          danger
          onConfirm={() => events.deleteConfirmed()}
          onCancel={() => events.deleteCancelled()}
        />
      )}
    </section>
  );
}
