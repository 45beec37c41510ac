import { useState } from 'react';
import { dockerApi, type DockerImageInfo as ImageInfo } from '../api/docker';
import { formatSize } from '../custom/storage-summary/format';
import { useKeyedData } from './useKeyedData';

/** Depot's wording: the spec names the tab (DockerV2Info, "Docker Info") but not its fields. */
export const DOCKER_INFO_LABELS = {
  failed: 'Could not load the Docker image',
  tag: 'Tag',
  digest: 'Digest',
  mediaType: 'Media Type',
  totalSize: 'Total Size',
  platform: 'OS / Arch',
  layers: 'Layers',
  platforms: 'Platforms',
  labels: 'Labels',
  noLabels: 'No labels.',
  size: 'Size',
  command: 'Command',
  noCommand: 'Not recorded',
  name: 'Name',
  value: 'Value',
  pull: 'Pull Command',
  copy: 'Copy',
  copied: 'Copied',
};
const L = DOCKER_INFO_LABELS;

function PullCommand({ command }: { command: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard?.writeText(command).catch(() => undefined);
    setCopied(true);
  };
  return (
    <section className="docker-pull" aria-label={L.pull}>
      <h4>{L.pull}</h4>
      <pre>
        <code>{command}</code>
      </pre>
      <button type="button" className="btn btn-link" onClick={copy}>
        {copied ? L.copied : L.copy}
      </button>
    </section>
  );
}

function LayersTable({ info }: { info: ImageInfo }) {
  return (
    <table className="plain-table docker-layers" aria-label={L.layers}>
      <thead>
        <tr>
          <th>#</th>
          <th>{L.digest}</th>
          <th>{L.size}</th>
          <th>{L.command}</th>
        </tr>
      </thead>
      <tbody>
        {info.layers.map((layer, i) => (
          <tr key={`${i}:${layer.digest}`}>
            <td>{i + 1}</td>
            <td>
              <code>{layer.digest}</code>
            </td>
            <td>{formatSize(layer.size)}</td>
            <td>{layer.command ? <code>{layer.command}</code> : L.noCommand}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function PlatformsTable({ info }: { info: ImageInfo }) {
  return (
    <table className="plain-table docker-platforms" aria-label={L.platforms}>
      <thead>
        <tr>
          <th>{L.platform}</th>
          <th>{L.digest}</th>
          <th>{L.size}</th>
        </tr>
      </thead>
      <tbody>
        {info.platforms.map((entry) => (
          <tr key={entry.digest}>
            <td>
              {[entry.os, entry.architecture, entry.variant].filter(Boolean).join(' / ') || '-'}
            </td>
            <td>
              <code>{entry.digest}</code>
            </td>
            <td>{formatSize(entry.size)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function LabelsTable({ labels }: { labels: Record<string, string> }) {
  const entries = Object.entries(labels);
  if (entries.length === 0) return <p>{L.noLabels}</p>;
  return (
    <table className="plain-table docker-labels" aria-label={L.labels}>
      <thead>
        <tr>
          <th>{L.name}</th>
          <th>{L.value}</th>
        </tr>
      </thead>
      <tbody>
        {entries.map(([name, value]) => (
          <tr key={name}>
            <td>{name}</td>
            <td>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What a shown image is: its tag, digest, sizes and platform. */
function Summary({ info }: { info: ImageInfo }) {
  return (
    <dl className="docker-summary">
      <dt>{L.tag}</dt>
      <dd>{info.tag}</dd>
      <dt>{L.digest}</dt>
      <dd>
        <code>{info.digest}</code>
      </dd>
      <dt>{L.mediaType}</dt>
      <dd>{info.mediaType}</dd>
      <dt>{L.totalSize}</dt>
      <dd>{formatSize(info.totalSize)}</dd>
      {info.os && (
        <>
          <dt>{L.platform}</dt>
          <dd>{[info.os, info.architecture].filter(Boolean).join(' / ')}</dd>
        </>
      )}
    </dl>
  );
}

/**
 * A Docker tag as the tree's DockerV2Info tab shows it, or one part of it (the package
 * browser shows the pull command above its tabs, the rest in its Layers tab): one server call
 * for a tag folder or its manifest file (spec 02: by repoKey and path).
 */
export function DockerImageInfo({
  repoKey,
  path,
  part = 'all',
}: {
  repoKey: string;
  path: string;
  part?: 'all' | 'pull' | 'details';
}) {
  const { data, error } = useKeyedData(
    `${repoKey}/${path}`,
    () => dockerApi.imageView(repoKey, path),
    L.failed,
  );
  if (error)
    return (
      <p role="alert" className="error-text">
        {error}
      </p>
    );
  if (!data) return null;
  if (part === 'pull') return <PullCommand command={data.pullCommand} />;
  return (
    <div className="docker-info">
      <Summary info={data} />
      {part === 'all' && <PullCommand command={data.pullCommand} />}
      <h4>{data.kind === 'index' ? L.platforms : L.layers}</h4>
      {data.kind === 'index' ? <PlatformsTable info={data} /> : <LayersTable info={data} />}
      <h4>{L.labels}</h4>
      <LabelsTable labels={data.labels} />
    </div>
  );
}
