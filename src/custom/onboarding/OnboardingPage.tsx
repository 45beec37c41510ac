import { useEffect, useId, type FormEvent, type ReactNode } from 'react';
import { useUnit } from 'effector-react';
import { DESIRED_FEATURES, PURPOSES, ROLES } from '../../api/onboarding';
import { CheckboxField } from '../../design/components/CheckboxField';
import { Select } from '../../design/components/Select';
import { TextField } from '../../design/components/TextField';
import * as model from './model';
import { ONBOARDING_LABELS as L } from './messages';
import '../quick-setup/quick-setup.css';

/** The personalisation wizard an admin meets before the quick setup (docs/onboarding.md). */
export default function OnboardingPage() {
  const [step, saveError, pending] = useUnit([model.$step, model.$saveError, model.$pending]);
  const mounted = useUnit(model.pageMounted);
  useEffect(() => mounted(), [mounted]);
  const events = useUnit({
    next: model.nextClicked,
    back: model.backClicked,
    skip: model.skipClicked,
  });
  const index = model.STEPS.indexOf(step);
  const last = step === 'features';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    events.next();
  };
  return (
    <section className="quick-setup" aria-labelledby="onboarding-title">
      <header className="page-header">
        <h1 id="onboarding-title">{L.title}</h1>
      </header>
      <ol className="quick-setup-steps" aria-label={L.stepOf(index, L.steps.length)}>
        {L.steps.map((label, i) => (
          <li key={label} aria-current={i === index ? 'step' : undefined}>
            {label}
          </li>
        ))}
      </ol>
      {saveError && (
        <p className="error-text" role="alert">
          {saveError}
        </p>
      )}
      <form onSubmit={submit} noValidate>
        {step === 'init' && <p>{L.intro}</p>}
        {step === 'purpose' && <PurposeStep />}
        {step === 'details' && <DetailsStep />}
        {last && <FeaturesStep />}
        <div className="form-actions">
          <button type="button" className="btn" disabled={pending} onClick={() => events.skip()}>
            {L.skip}
          </button>
          {index > 0 && (
            <button type="button" className="btn" onClick={() => events.back()}>
              {L.back}
            </button>
          )}
          <button type="submit" className="btn btn-primary" disabled={pending}>
            {step === 'init' ? L.start : last ? (pending ? L.saving : L.finish) : L.next}
          </button>
        </div>
      </form>
    </section>
  );
}

function Group({
  legend,
  error,
  children,
}: {
  legend: string;
  error?: string;
  children: ReactNode;
}) {
  const errorId = useId();
  return (
    <fieldset className="quick-setup-types" aria-describedby={error ? errorId : undefined}>
      <legend>{legend}</legend>
      {children}
      {error && (
        <p id={errorId} className="error-text">
          {error}
        </p>
      )}
    </fieldset>
  );
}

function PurposeStep() {
  const [draft, errors, changed] = useUnit([model.$draft, model.$errors, model.fieldChanged]);
  return (
    <Group legend={L.purpose} error={errors.purpose}>
      {PURPOSES.map((purpose) => (
        <div className="field" key={purpose}>
          <label className="checkbox">
            <input
              type="radio"
              name="purpose"
              checked={draft.purpose === purpose}
              onChange={() => changed({ purpose })}
            />
            <span>{L.purposes[purpose]}</span>
          </label>
        </div>
      ))}
    </Group>
  );
}

function DetailsStep() {
  const [draft, errors, changed] = useUnit([model.$draft, model.$errors, model.fieldChanged]);
  const roleErrorId = useId();
  return (
    <>
      {draft.purpose === 'Commercial' ? (
        <TextField
          label={L.companyName}
          required
          value={draft.companyName ?? ''}
          error={errors.companyName}
          onChange={(event) => changed({ companyName: event.target.value })}
        />
      ) : (
        <TextField
          label={L.ossProjectName}
          value={draft.ossProjectName ?? ''}
          onChange={(event) => changed({ ossProjectName: event.target.value })}
        />
      )}
      <div className="field">
        <Select
          label={L.role}
          options={ROLES.map((role) => ({ value: role, label: role }))}
          value={draft.role ?? null}
          onChange={(role) => changed({ role })}
          isRequired
          isInvalid={Boolean(errors.role)}
          describedBy={errors.role ? roleErrorId : undefined}
        />
        {errors.role && (
          <p id={roleErrorId} className="error-text">
            {errors.role}
          </p>
        )}
      </div>
      {draft.role === 'Other' && (
        <TextField
          label={L.otherRole}
          required
          value={draft.otherRole ?? ''}
          error={errors.otherRole}
          onChange={(event) => changed({ otherRole: event.target.value })}
        />
      )}
    </>
  );
}

function FeaturesStep() {
  const [draft, errors, toggled] = useUnit([model.$draft, model.$errors, model.featureToggled]);
  return (
    <Group legend={L.features} error={errors.desiredFeatures}>
      {DESIRED_FEATURES.map((feature) => (
        <CheckboxField
          key={feature}
          label={feature}
          checked={(draft.desiredFeatures ?? []).includes(feature)}
          onChange={() => toggled(feature)}
        />
      ))}
    </Group>
  );
}
