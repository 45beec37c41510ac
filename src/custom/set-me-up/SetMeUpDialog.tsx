import { useState, type FormEvent } from 'react';
import { useUnit } from 'effector-react';
import { Dialog } from '../../design/components/Dialog';
import { Select } from '../../design/components/Select';
import { $isAnonymous } from '../../shell/session/model';
import {
  $credentials,
  $data,
  $dockerHost,
  $dockerHosts,
  $needsApiKey,
  $repoKey,
  $repositories,
  $server,
  $tool,
  $unlockError,
  createApiKeyClicked,
  dockerMethodChosen,
  repoChosen,
  setMeUpClosed,
  toolChosen,
  unlockSubmitted,
} from './model';
import {
  DOCKER_METHOD_LABELS,
  SET_ME_UP_LABELS as L,
  SET_ME_UP_MESSAGES as M,
  TOOLS,
  type ToolId,
} from './messages';
import { snippetsFor, type Snippet } from './snippets';

function SnippetBlock({ snippet }: { snippet: Snippet }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard?.writeText(snippet.text).catch(() => undefined);
    setCopied(true);
  };
  return (
    <figure className="snippet">
      <figcaption>
        {snippet.title}{' '}
        <button type="button" className="btn btn-link" onClick={copy}>
          {copied ? L.copied : L.copy}
        </button>
      </figcaption>
      <pre aria-label={snippet.title}>
        <code>{snippet.text}</code>
      </pre>
    </figure>
  );
}

function UnlockForm() {
  const [needsKey, error, credentials] = useUnit([$needsApiKey, $unlockError, $credentials]);
  const [password, setPassword] = useState('');
  if (credentials) return <p role="status">{L.inserted}</p>;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    unlockSubmitted(password);
  };
  return (
    <form className="set-me-up-unlock" onSubmit={submit}>
      <label>
        {L.password}
        <input
          type="password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </label>
      <button type="submit" className="btn">
        {L.insert}
      </button>
      {error && <p role="alert">{error}</p>}
      {needsKey && (
        <p role="alert">
          {M.noApiKey}{' '}
          <button type="button" className="btn btn-link" onClick={() => createApiKeyClicked()}>
            {L.createApiKey}
          </button>
        </p>
      )}
    </form>
  );
}

/** Set Me Up (spec 03 §2): how to point a package client at a repository, with snippets. */
export default function SetMeUpDialog() {
  const [data, tool, repoKey, repositories, server, credentials, anonymous] = useUnit([
    $data,
    $tool,
    $repoKey,
    $repositories,
    $server,
    $credentials,
    $isAnonymous,
  ]);
  const [dockerHosts, dockerHost] = useUnit([$dockerHosts, $dockerHost]);
  const repo = repositories.find((r) => r.repoKey === repoKey);
  const sections =
    data && repo
      ? snippetsFor(
          tool,
          { baseUrl: data.baseUrl, repoKey, server, dockerHost: dockerHost ?? undefined },
          credentials ?? undefined,
        )
      : undefined;
  return (
    <Dialog
      title={L.title}
      size="wide"
      onClose={() => setMeUpClosed()}
      actions={
        <button type="button" className="btn" onClick={() => setMeUpClosed()}>
          {L.close}
        </button>
      }
    >
      <div className="set-me-up">
        <Select
          label={L.tool}
          options={TOOLS.map((t) => ({ value: t.id, label: t.label }))}
          value={tool}
          onChange={(id: ToolId) => toolChosen(id)}
        />
        {data && data.repoKeyTypes.length === 0 && <p role="alert">{M.noAccess}</p>}
        {data && data.repoKeyTypes.length > 0 && repositories.length === 0 && (
          <p role="alert">{M.noMatchingRepos}</p>
        )}
        {repositories.length > 0 && (
          <Select
            label={L.repository}
            options={repositories.map((r) => ({ value: r.repoKey, label: r.repoKey }))}
            value={repoKey}
            onChange={(key) => repoChosen(key)}
          />
        )}
        {tool === 'docker' && repo && dockerHosts.length > 1 && dockerHost && (
          <Select
            label={L.dockerMethod}
            options={dockerHosts.map((h) => ({
              value: h.method,
              label: DOCKER_METHOD_LABELS[h.method],
            }))}
            value={dockerHost.method}
            onChange={(method) => dockerMethodChosen(method)}
          />
        )}
        {!anonymous && repo && <UnlockForm />}
        {sections && (
          <>
            <section aria-label={L.general}>
              <h3>{L.general}</h3>
              {sections.general.map((s) => (
                <SnippetBlock key={s.title} snippet={s} />
              ))}
            </section>
            <section aria-label={L.read}>
              <h3>{L.read}</h3>
              {sections.read.map((s) => (
                <SnippetBlock key={s.title} snippet={s} />
              ))}
            </section>
            {sections.deploy.length > 0 && (
              <section aria-label={L.deploy}>
                <h3>{L.deploy}</h3>
                {repo?.canDeploy ? (
                  sections.deploy.map((s) => <SnippetBlock key={s.title} snippet={s} />)
                ) : (
                  <p role="alert">{M.noDeployPermission}</p>
                )}
              </section>
            )}
          </>
        )}
      </div>
    </Dialog>
  );
}
