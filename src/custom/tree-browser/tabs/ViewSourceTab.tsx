import { useState } from 'react';
import { errorMessage } from '../../../api/errorMessage';
import {
  treeTabsApi,
  type ArchiveEntry,
  type ArchiveSource,
  type TreeNode,
} from '../../../api/treeBrowser';
import { Dialog } from '../../../design/components/Dialog';
import { formatSize } from '../../storage-summary/format';
import { TAB_LABELS } from '../messages';
import { nodeId } from '../rows';
import { VirtualRows } from '../VirtualRows';
import { useKeyedData } from '../../../components/useKeyedData';
import { ScrollableCode } from '../../../components/ScrollableCode';

const T = TAB_LABELS.source;
const ENTRY_ROW_HEIGHT = 26;

/** View Source: the entries inside an archive, and any entry's text in the code view. */
export function ViewSourceTab({ node }: { node: TreeNode }) {
  const { data, error } = useKeyedData(
    nodeId(node),
    () => treeTabsApi.archiveEntries(node),
    T.failed,
  );
  const [active, setActive] = useState(-1);
  const [open, setOpen] = useState<{
    entry: string;
    source?: ArchiveSource;
    error?: string;
  } | null>(null);
  if (error)
    return (
      <p role="alert" className="error-text">
        {error}
      </p>
    );
  if (!data) return null;
  const entries = data.entries;

  const show = async (entry: ArchiveEntry) => {
    if (entry.folder) return;
    setOpen({ entry: entry.path });
    try {
      setOpen({ entry: entry.path, source: await treeTabsApi.archiveSource(node, entry.path) });
    } catch (failure) {
      setOpen({ entry: entry.path, error: errorMessage(failure, T.failed) });
    }
  };
  const depthOf = (path: string) => path.split('/').length - 1;
  return (
    <div className="tree-archive">
      {data.truncated && <p className="hint">{T.truncated(entries.length)}</p>}
      <VirtualRows
        count={entries.length}
        rowHeight={ENTRY_ROW_HEIGHT}
        activeIndex={active}
        label={T.entries}
        className="tree-archive-entries"
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') setActive((i) => Math.min(entries.length - 1, i + 1));
          else if (event.key === 'ArrowUp') setActive((i) => Math.max(0, i - 1));
          else if (event.key === 'Enter' && entries[active]) void show(entries[active]);
          else return;
          event.preventDefault();
        }}
        renderRow={(index) => {
          const entry = entries[index];
          const name = entry.path.replace(/\/$/, '').split('/').pop();
          return (
            <div
              role="treeitem"
              aria-selected={index === active}
              aria-level={depthOf(entry.path.replace(/\/$/, '')) + 1}
              className={`tree-row${index === active ? ' is-active' : ''}`}
              style={{ paddingLeft: depthOf(entry.path.replace(/\/$/, '')) * 16 }}
              title={entry.path}
              onClick={() => {
                setActive(index);
                void show(entry);
              }}
            >
              <span className="tree-text">{entry.folder ? `${name}/` : name}</span>
              {!entry.folder && <span className="hint">{formatSize(entry.size)}</span>}
            </div>
          );
        }}
      />
      {open && (
        <Dialog
          title={open.entry}
          onClose={() => setOpen(null)}
          actions={
            <button type="button" className="btn" onClick={() => setOpen(null)}>
              {T.close}
            </button>
          }
        >
          {open.error && (
            <p role="alert" className="error-text">
              {open.error}
            </p>
          )}
          {open.source?.binary && <p>{T.binary}</p>}
          {open.source && !open.source.binary && (
            <ScrollableCode className="tree-code tree-code-view" label={open.entry}>
              {open.source.source}
            </ScrollableCode>
          )}
          {open.source?.truncated && <p className="hint">{T.sourceTruncated}</p>}
        </Dialog>
      )}
    </div>
  );
}
