import { useState } from 'react';
import {
  DEFAULT_FOLDER_DOWNLOAD,
  type FolderArchiveType,
  type FolderDownloadInfo,
  type FolderDownloadOptions,
} from '../../api/treeBrowser';
import { CheckboxField } from '../../design/components/CheckboxField';
import { Dialog } from '../../design/components/Dialog';
import { SelectField } from '../../design/components/SelectField';
import { ACTION_LABELS as A } from './messages';

/**
 * The Download Folder dialog: the folder's size, then the archive format (zip, tar,
 * tar.gz) and whether each file gets its checksum files beside it (spec 02 §4, the
 * downloadfolder call's archiveType and includeChecksumFiles).
 */
export function FolderDownloadDialog({
  info,
  onDownload,
  onCancel,
}: {
  info: FolderDownloadInfo;
  onDownload: (options: FolderDownloadOptions) => void;
  onCancel: () => void;
}) {
  const [options, setOptions] = useState<FolderDownloadOptions>(DEFAULT_FOLDER_DOWNLOAD);
  return (
    <Dialog
      title={A.downloadFolderTitle}
      onClose={onCancel}
      actions={
        <>
          <button type="button" className="btn btn-primary" onClick={() => onDownload(options)}>
            {A.names.download}
          </button>
          <button type="button" className="btn" onClick={onCancel}>
            {A.cancel}
          </button>
        </>
      }
    >
      <p>{A.downloadFolderText(info.totalFiles, info.sizeMB)}</p>
      <SelectField
        label={A.archiveType}
        options={A.archiveTypes}
        value={options.archiveType}
        onChange={(archiveType) =>
          setOptions({ ...options, archiveType: archiveType as FolderArchiveType })
        }
      />
      <CheckboxField
        label={A.includeChecksumFiles}
        checked={options.includeChecksumFiles}
        onChange={(event) =>
          setOptions({ ...options, includeChecksumFiles: event.currentTarget.checked })
        }
      />
    </Dialog>
  );
}
