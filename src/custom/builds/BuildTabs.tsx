import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { formatDate } from '../../engine/list/cellFormat';
import { treeHref } from '../../components/treeLinks';
import { EffectivePermissionsTable } from '../../components/EffectivePermissionsTable';
import { useKeyedData } from '../../components/useKeyedData';
import { buildsApi, type BuildAt, type BuildFile, type DiffChanges } from './api';
import { BUILD_LABELS as L, BUILD_MESSAGES as M, BUILD_TABS, type BuildTabId } from './messages';
import { Select } from '../../design/components/Select';

const keyOf = (build: BuildAt) => `${build.name}#${build.number}@${build.startTime}`;
const when = (millis: number) => formatDate(new Date(millis).toISOString());

/** A tab's data through the tree's loader: fetched when the build or the tab changes. */
function Loaded<T>({
  id,
  load,
  children,
}: {
  id: string;
  load: () => Promise<T>;
  children: (data: T) => ReactNode;
}) {
  const { data, error } = useKeyedData(id, load, M.loadFailed);
  if (error) return <p role="alert">{error}</p>;
  if (!data) return <p role="status">Loading…</p>;
  return <>{children(data)}</>;
}

function Table({ label, head, rows }: { label: string; head: string[]; rows: ReactNode[][] }) {
  return (
    <table className="builds-table" aria-label={label}>
      <thead>
        <tr>
          {head.map((h) => (
            <th scope="col" key={h}>
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((cells, row) => (
          <tr key={row}>
            {cells.map((cell, column) => (
              <td key={column}>{cell}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A listed file, linked to its stored copy in the tree when the caller may read one. */
const fileCell = (file: BuildFile) =>
  file.repoKey && file.path ? (
    <Link to={treeHref({ browser: 'tree', tab: 'General', path: `${file.repoKey}/${file.path}` })}>
      {`${file.repoKey}/${file.path}`}
    </Link>
  ) : (
    L.notStored
  );

export function BuildTab({
  tab,
  build,
  general,
}: {
  tab: BuildTabId;
  build: BuildAt;
  general: Record<string, unknown>;
}) {
  const id = `${keyOf(build)}/${tab}`;
  switch (tab) {
    case 'modules':
      return <ModulesTab build={build} />;
    case 'environment':
      return (
        <>
          {(['env', 'system'] as const).map((kind) => (
            <section key={kind}>
              <h2>{kind === 'env' ? L.envVariables : L.systemVariables}</h2>
              <Loaded id={`${id}/${kind}`} load={() => buildsApi.properties(build, kind)}>
                {({ properties }) =>
                  properties.length === 0 ? (
                    <p>{M.noProperties}</p>
                  ) : (
                    <Table
                      label={kind === 'env' ? L.envVariables : L.systemVariables}
                      head={[L.key, L.value]}
                      rows={properties.map((p) => [p.key, p.value])}
                    />
                  )
                }
              </Loaded>
            </section>
          ))}
        </>
      );
    case 'issues':
      return (
        <Loaded id={id} load={() => buildsApi.issues(build)}>
          {({ issues }) =>
            issues.length === 0 ? (
              <p>{M.noIssues}</p>
            ) : (
              <Table
                label={BUILD_TAB_LABEL.issues}
                head={[L.issueKey, L.summary]}
                rows={issues.map((issue) => [
                  issue.url && /^https?:\/\//i.test(issue.url) ? (
                    <a href={issue.url} target="_blank" rel="noreferrer noopener">
                      {issue.key}
                    </a>
                  ) : (
                    issue.key
                  ),
                  issue.summary ?? '',
                ])}
              />
            )
          }
        </Loaded>
      );
    case 'diff':
      return <DiffTab build={build} />;
    case 'history':
      return (
        <Loaded id={id} load={() => buildsApi.releaseHistory(build)}>
          {({ releaseHistory }) =>
            releaseHistory.length === 0 ? (
              <p>{M.noHistory}</p>
            ) : (
              <Table
                label={BUILD_TAB_LABEL.history}
                head={[L.status, L.repository, L.comment, L.user, L.time]}
                rows={releaseHistory.map((p) => [
                  p.status,
                  p.repository,
                  p.comment,
                  p.user,
                  when(p.timestamp),
                ])}
              />
            )
          }
        </Loaded>
      );
    case 'permissions':
      return (
        <EffectivePermissionsTable
          subject={keyOf(build)}
          load={(pageNum, direction) => buildsApi.effectivePermissions(build, pageNum, direction)}
        />
      );
    case 'json':
      return (
        <Loaded id={id} load={() => buildsApi.json(build)}>
          {({ fileContent }) => (
            // focusable so that a keyboard can scroll it (axe: scrollable-region-focusable)
            <pre
              className="builds-json"
              tabIndex={0}
              aria-label={BUILD_TABS.find((t) => t.id === 'json')?.label}
            >
              {fileContent}
            </pre>
          )}
        </Loaded>
      );
    default:
      return <GeneralTab general={general} />;
  }
}

const BUILD_TAB_LABEL = { issues: 'Issues', history: 'Release History' };

function GeneralTab({ general }: { general: Record<string, unknown> }) {
  const G = L.general;
  const text = (value: unknown) =>
    value && typeof value === 'object'
      ? [(value as { name?: string }).name, (value as { version?: string }).version]
          .filter(Boolean)
          .join(' ')
      : value === undefined || value === null
        ? ''
        : String(value);
  const vcs = ((general.vcs as { revision?: string; url?: string }[]) ?? [])[0];
  const url = text(general.url);
  const entries: [string, ReactNode][] = [
    [G.name, text(general.name)],
    [G.number, text(general.number)],
    [G.type, text(general.type)],
    [G.started, when(Number(general.time))],
    [G.duration, general.durationMillis === undefined ? '' : `${text(general.durationMillis)} ms`],
    [G.agent, text(general.agent)],
    [G.buildAgent, text(general.buildAgent)],
    [G.principal, text(general.principal)],
    [
      G.url,
      /^https?:\/\//i.test(url) ? (
        <a href={url} target="_blank" rel="noreferrer noopener">
          {url}
        </a>
      ) : (
        url
      ),
    ],
    [G.vcsRevision, vcs?.revision ?? ''],
    [G.vcsUrl, vcs?.url ?? ''],
    [G.project, text(general.projectKey)],
  ];
  return (
    <dl className="builds-general">
      {entries
        .filter(([, value]) => value !== '')
        .map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  );
}

function ModulesTab({ build }: { build: BuildAt }) {
  const [open, setOpen] = useState<string | null>(null);
  return (
    <Loaded id={`${keyOf(build)}/modules`} load={() => buildsApi.modules(build)}>
      {({ modules }) =>
        modules.length === 0 ? (
          <p>{M.noModules}</p>
        ) : (
          <>
            <Table
              label="Published Modules"
              head={[L.module, L.artifactCount, L.dependencyCount]}
              rows={modules.map((m) => [
                <button
                  type="button"
                  className="btn-link"
                  aria-expanded={open === m.moduleId}
                  onClick={() => setOpen(open === m.moduleId ? null : m.moduleId)}
                >
                  {m.moduleId}
                </button>,
                m.numOfArtifacts,
                m.numOfDependencies,
              ])}
            />
            {open && <ModuleFiles build={build} moduleId={open} />}
          </>
        )
      }
    </Loaded>
  );
}

function ModuleFiles({ build, moduleId }: { build: BuildAt; moduleId: string }) {
  const id = `${keyOf(build)}/module/${moduleId}`;
  return (
    <section aria-label={`${L.module} ${moduleId}`}>
      <h2>{`${L.artifacts}: ${moduleId}`}</h2>
      <Loaded id={`${id}/a`} load={() => buildsApi.moduleArtifacts(build, moduleId)}>
        {({ artifacts }) => (
          <Table
            label={`${L.artifacts} ${moduleId}`}
            head={[L.fileName, L.type, L.repoPath]}
            rows={artifacts.map((a) => [a.name ?? '', a.type ?? '', fileCell(a)])}
          />
        )}
      </Loaded>
      <h2>{`${L.dependencies}: ${moduleId}`}</h2>
      <Loaded id={`${id}/d`} load={() => buildsApi.moduleDependencies(build, moduleId)}>
        {({ dependencies }) => (
          <Table
            label={`${L.dependencies} ${moduleId}`}
            head={[L.fileName, L.type, L.scopes, L.repoPath]}
            rows={dependencies.map((d) => [
              d.id ?? '',
              d.type ?? '',
              (d.scopes ?? []).join(', '),
              fileCell(d),
            ])}
          />
        )}
      </Loaded>
    </section>
  );
}

function DiffTab({ build }: { build: BuildAt }) {
  return (
    <Loaded
      id={`${keyOf(build)}/others`}
      load={() => buildsApi.history(build.name, build.projectKey)}
    >
      {({ history }) => {
        const others = history.filter(
          (v) => !(v.buildNumber === build.number && String(v.time) === build.startTime),
        );
        return others.length === 0 ? (
          <p>{M.noOther}</p>
        ) : (
          <DiffPicker build={build} others={others} />
        );
      }}
    </Loaded>
  );
}

function DiffPicker({
  build,
  others,
}: {
  build: BuildAt;
  others: { buildNumber: string; time: number }[];
}) {
  // The build before this one by default, as the spec's prevBuild call suggests.
  const previous = others.find((v) => v.time < Number(build.startTime)) ?? others[0]!;
  const [other, setOther] = useState(`${previous.buildNumber}@${previous.time}`);
  const [number, time] = other.split('@') as [string, string];
  return (
    <>
      <Select
        label={L.compareWith}
        options={others.map((v) => ({
          value: `${v.buildNumber}@${v.time}`,
          label: `${v.buildNumber} (${when(v.time)})`,
        }))}
        value={other}
        onChange={setOther}
      />
      <Loaded
        id={`${keyOf(build)}/diff/${other}`}
        load={() => buildsApi.diff(build, { number, time: Number(time) })}
      >
        {(diff) => (
          <>
            <DiffSection
              title={L.artifacts}
              changes={diff.artifacts}
              nameOf={(f) => f.name ?? ''}
            />
            <DiffSection
              title={L.dependencies}
              changes={diff.dependencies}
              nameOf={(f) => f.name ?? f.id ?? ''}
            />
            <DiffSection title={L.properties} changes={diff.properties} nameOf={(p) => p.name} />
          </>
        )}
      </Loaded>
    </>
  );
}

function DiffSection<T>({
  title,
  changes,
  nameOf,
}: {
  title: string;
  changes: DiffChanges<T>;
  nameOf: (entry: T) => string;
}) {
  const rows = (
    [
      [L.diffNew, changes.new],
      [L.diffUpdated, changes.updated],
      [L.diffRemoved, changes.removed],
    ] as const
  ).flatMap(([kind, entries]) => entries.map((entry) => [kind, nameOf(entry)]));
  return (
    <section>
      <h2>{title}</h2>
      <Table label={`${title} diff`} head={[L.status, L.fileName]} rows={rows} />
      <p>{`${L.diffUnchanged}: ${changes.unchanged.length}`}</p>
    </section>
  );
}
