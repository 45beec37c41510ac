import { useUnit } from 'effector-react';
import { formatSize } from '../storage-summary/format';
import { $storage } from './model';
import { ProjectSettingsPage } from './ProjectSettingsPage';
import { QuotaBar } from './QuotaBar';
import { PROJECT_LABELS as L } from './messages';

/** Project Settings > Storage: the quota meter and each repository's share, as bars. */
export default function ProjectStoragePage() {
  return (
    <ProjectSettingsPage title={L.storage}>
      <Storage />
    </ProjectSettingsPage>
  );
}

function Storage() {
  const storage = useUnit($storage);
  if (!storage) return null;
  const largest = Math.max(1, ...storage.repositories.map((repo) => repo.usedSpace));
  return (
    <>
      <QuotaBar storage={storage} />
      {storage.repositories.length === 0 ? (
        <p role="status">{L.noRepositories}</p>
      ) : (
        <table className="data-table storage-table">
          <thead>
            <tr>
              <th scope="col">{L.repositories}</th>
              <th scope="col">{L.files}</th>
              <th scope="col">{L.used}</th>
              <th scope="col" aria-hidden="true" />
            </tr>
          </thead>
          <tbody>
            {storage.repositories.map((repo) => (
              <tr key={repo.repoKey}>
                <td>{repo.repoKey}</td>
                <td>{repo.filesCount}</td>
                <td>{formatSize(repo.usedSpace)}</td>
                <td aria-hidden="true" className="storage-bar-cell">
                  <span
                    className="storage-bar"
                    style={{ width: `${(repo.usedSpace / largest) * 100}%` }}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
