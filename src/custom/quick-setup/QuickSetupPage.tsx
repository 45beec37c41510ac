import { useEffect, useId, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { CheckboxField } from '../../design/components/CheckboxField';
import { TextField } from '../../design/components/TextField';
import * as model from './model';
import { QUICK_SETUP_LABELS as L } from './messages';
import './quick-setup.css';

const STEP_INDEX = { select: 0, name: 1 } as const;

/** The first-run quick setup (spec 03 "Onboarding", docs/onboarding.md). */
export default function QuickSetupPage() {
  const [step, error] = useUnit([model.$step, model.$error]);
  const mounted = useUnit(model.pageMounted);
  useEffect(() => mounted(), [mounted]);
  return (
    <section className="quick-setup" aria-labelledby="quick-setup-title">
      <header className="page-header">
        <h1 id="quick-setup-title">{L.title}</h1>
      </header>
      {step === 'done' ? (
        <Created />
      ) : (
        <>
          <p>{L.intro}</p>
          <Steps current={STEP_INDEX[step]} />
          {error && (
            <p className="error-text" role="alert">
              {error}
            </p>
          )}
          {step === 'select' ? <SelectTypes /> : <NameRepositories />}
        </>
      )}
    </section>
  );
}

function Steps({ current }: { current: number }) {
  return (
    <ol className="quick-setup-steps" aria-label={L.stepOf(current, L.steps.length)}>
      {L.steps.map((label, index) => (
        <li key={label} aria-current={index === current ? 'step' : undefined}>
          {label}
        </li>
      ))}
    </ol>
  );
}

function SelectTypes() {
  const [types, selected, pending] = useUnit([model.$types, model.$selected, model.$pending]);
  const events = useUnit({
    toggle: model.typeToggled,
    next: model.nextClicked,
    skip: model.skipClicked,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    events.next();
  };
  return (
    <form onSubmit={submit} noValidate>
      <fieldset className="quick-setup-types">
        <legend>{L.packageTypes}</legend>
        {types.map((type) => (
          <CheckboxField
            key={type.packageType}
            label={type.state === 'ALREADY_SET' ? `${type.label} (${L.existing})` : type.label}
            checked={selected.includes(type.packageType)}
            onChange={() => events.toggle(type.packageType)}
          />
        ))}
      </fieldset>
      <div className="form-actions">
        <button type="button" className="btn" disabled={pending} onClick={() => events.skip()}>
          {L.skip}
        </button>
        <button type="submit" className="btn btn-primary" disabled={selected.length === 0}>
          {L.next}
        </button>
      </div>
    </form>
  );
}

function NameRepositories() {
  const [types, selected, prefix, upstreams, plan, pending] = useUnit([
    model.$types,
    model.$selected,
    model.$prefix,
    model.$upstreams,
    model.$plan,
    model.$pending,
  ]);
  const events = useUnit({
    prefix: model.prefixChanged,
    upstream: model.upstreamChanged,
    back: model.backClicked,
    create: model.createClicked,
  });
  const hintId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    events.create();
  };
  return (
    <form onSubmit={submit} noValidate>
      <TextField
        label={L.prefix}
        required
        value={prefix}
        aria-describedby={hintId}
        onChange={(event) => events.prefix(event.target.value)}
      />
      <p id={hintId} className="field-help">
        {L.prefixHint}
      </p>
      {types
        .filter((type) => selected.includes(type.packageType))
        .map((type) => (
          <TextField
            key={type.packageType}
            label={L.upstream(type.label)}
            type="url"
            required
            value={upstreams[type.packageType] ?? ''}
            onChange={(event) =>
              events.upstream({ packageType: type.packageType, url: event.target.value })
            }
          />
        ))}
      {prefix.trim() && (
        <table className="quick-setup-plan">
          <caption>{L.preview}</caption>
          <thead>
            <tr>
              <th scope="col">{L.key}</th>
              <th scope="col">{L.kind}</th>
              <th scope="col">{L.project}</th>
            </tr>
          </thead>
          <tbody>
            {plan.map((repo) => (
              <tr key={repo.key}>
                <td>{repo.key}</td>
                <td>{repo.rclass}</td>
                <td>{L.defaultProject}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="form-actions">
        <button type="button" className="btn" onClick={() => events.back()}>
          {L.back}
        </button>
        <button type="submit" className="btn btn-primary" disabled={pending || !prefix.trim()}>
          {pending ? L.creating : L.create}
        </button>
      </div>
    </form>
  );
}

function Created() {
  const [created, finish] = useUnit([model.$created, model.finishClicked]);
  return (
    <div className="quick-setup-done">
      <div role="status">
        <h2>{L.created}</h2>
      </div>
      <h3>{L.createdList}</h3>
      <ul>
        {created.map((repo) => (
          <li key={repo.key}>
            <Link to={`/admin/repositories/${repo.rclass}/${encodeURIComponent(repo.key)}/edit`}>
              {repo.key}
            </Link>{' '}
            ({repo.rclass}, {L.defaultProject})
          </li>
        ))}
      </ul>
      <button type="button" className="btn btn-primary" onClick={() => finish()}>
        {L.finish}
      </button>
    </div>
  );
}
