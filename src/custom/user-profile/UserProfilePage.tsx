import { useEffect, useState, type FormEvent } from 'react';
import { useUnit } from 'effector-react';
import { TextField } from '../../design/components/TextField';
import { ConfirmDialog } from '../../design/components/ConfirmDialog';
import { $currentUser } from '../../shell/session/model';
import { MfaEnrollment } from '../../shell/login/MfaEnrollment';
import { OtpField } from '../../shell/login/OtpField';
import * as model from './model';
import { PROFILE_LABELS as L, PROFILE_MESSAGES } from './messages';
import './user-profile.css';

/** admin/artifactory/user_profile: a signed-in user's own settings (issue 5 item 5). */
export default function UserProfilePage() {
  const opened = useUnit(model.profileOpened);
  useEffect(() => opened(), [opened]);
  return (
    <div className="user-profile">
      <h1>{L.title}</h1>
      <PersonalSettings />
      <PasswordSection />
      <ApiKeySection />
      <IdentityTokenSection />
      <MfaSection />
    </div>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  const id = `profile-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

function ErrorText({ text }: { text: string | null }) {
  return text ? (
    <p className="error-text" role="alert">
      {text}
    </p>
  ) : null;
}

function PersonalSettings() {
  const [user, error, pending, save] = useUnit([
    $currentUser,
    model.$emailError,
    model.saveEmailFx.pending,
    model.emailSaved,
  ]);
  const [email, setEmail] = useState(user?.email ?? '');
  const [password, setPassword] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save({ email, password });
    setPassword('');
  };
  const locked = user?.profileUpdatable === false;
  return (
    <Section title={L.personal}>
      <form onSubmit={submit} noValidate>
        <TextField label={L.userName} value={user?.name ?? ''} readOnly />
        <TextField
          label={L.email}
          type="email"
          autoComplete="email"
          required
          disabled={locked}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <TextField
          label={L.currentPassword}
          type="password"
          autoComplete="current-password"
          required
          disabled={locked}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <ErrorText text={error} />
        <button
          type="submit"
          className="btn btn-primary"
          disabled={locked || pending || !email || !password}
        >
          {L.save}
        </button>
      </form>
    </Section>
  );
}

function PasswordSection() {
  const [user, rules, error, pending, submit] = useUnit([
    $currentUser,
    model.$passwordRules,
    model.$passwordError,
    model.changePasswordFx.pending,
    model.passwordChangeSubmitted,
  ]);
  const [oldPassword, setOld] = useState('');
  const [newPassword1, setNew1] = useState('');
  const [newPassword2, setNew2] = useState('');
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit({ userName: user?.name ?? '', oldPassword, newPassword1, newPassword2 });
  };
  if (user?.profileUpdatable === false || user?.realm !== 'internal') return null;
  return (
    <Section title={L.changePassword}>
      <form onSubmit={onSubmit} noValidate>
        <TextField
          label={L.currentPassword}
          type="password"
          autoComplete="current-password"
          required
          value={oldPassword}
          onChange={(e) => setOld(e.target.value)}
        />
        <TextField
          label={L.newPassword}
          type="password"
          autoComplete="new-password"
          required
          value={newPassword1}
          onChange={(e) => setNew1(e.target.value)}
        />
        <TextField
          label={L.retypePassword}
          type="password"
          autoComplete="new-password"
          required
          value={newPassword2}
          onChange={(e) => setNew2(e.target.value)}
        />
        {rules.length > 0 && <p className="profile-hint">The password needs {rules.join(', ')}.</p>}
        <ErrorText text={error} />
        <button
          type="submit"
          className="btn btn-primary"
          disabled={pending || !oldPassword || !newPassword1 || !newPassword2}
        >
          {L.changePassword}
        </button>
      </form>
    </Section>
  );
}

function SecretValue({ value }: { value: string }) {
  return (
    <p className="profile-secret">
      <code>{value}</code>
      <button
        type="button"
        className="btn"
        onClick={() => void navigator.clipboard?.writeText(value)}
      >
        {L.copy}
      </button>
    </p>
  );
}

function ApiKeySection() {
  const [apiKey, generate, revoke, busy] = useUnit([
    model.$apiKey,
    model.apiKeyGenerated,
    model.apiKeyRevoked,
    model.generateApiKeyFx.pending,
  ]);
  const [confirming, setConfirming] = useState(false);
  return (
    <Section title={L.apiKey}>
      {apiKey ? <SecretValue value={apiKey} /> : <p>{L.noApiKey}</p>}
      <div className="profile-actions">
        <button type="button" className="btn" disabled={busy} onClick={() => generate()}>
          {apiKey ? L.regenerateApiKey : L.generateApiKey}
        </button>
        {apiKey && (
          <button type="button" className="btn btn-danger" onClick={() => setConfirming(true)}>
            {L.revokeApiKey}
          </button>
        )}
      </div>
      {confirming && (
        <ConfirmDialog
          title={L.revokeApiKey}
          text={PROFILE_MESSAGES.revokeConfirm}
          confirmLabel={L.revokeApiKey}
          cancelLabel="Cancel"
          danger
          onConfirm={() => {
            setConfirming(false);
            revoke();
          }}
          onCancel={() => setConfirming(false)}
        />
      )}
    </Section>
  );
}

function IdentityTokenSection() {
  const [token, request, busy] = useUnit([
    model.$identityToken,
    model.identityTokenRequested,
    model.createTokenFx.pending,
  ]);
  return (
    <Section title={L.identityToken}>
      <p className="profile-hint">{L.identityTokenHint}</p>
      {token && <SecretValue value={token.access_token} />}
      <button type="button" className="btn" disabled={busy} onClick={() => request()}>
        {L.generateToken}
      </button>
    </Section>
  );
}

function MfaSection() {
  const [status, offer, error, pending, start, confirm, remove] = useUnit([
    model.$mfaStatus,
    model.$mfaOffer,
    model.$mfaError,
    model.confirmMfaFx.pending,
    model.mfaSetupStarted,
    model.mfaCodeSubmitted,
    model.mfaRemovalSubmitted,
  ]);
  const [removalCode, setRemovalCode] = useState('');
  if (!status) return null;
  if (!status.enabled) {
    return (
      <Section title={L.mfa}>
        <p>{L.mfaDisabled}</p>
      </Section>
    );
  }
  return (
    <Section title={L.mfa}>
      <p>{status.enrolled ? L.mfaOn : L.mfaOff}</p>
      {status.enforced && <p className="profile-hint">{L.mfaEnforced}</p>}
      {!status.enrolled && !offer && (
        <button type="button" className="btn" onClick={() => start()}>
          {L.setUpMfa}
        </button>
      )}
      {!status.enrolled && offer && (
        <MfaEnrollment offer={offer} error={error} pending={pending} onSubmit={confirm} />
      )}
      {status.enrolled && !status.enforced && (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            remove(removalCode);
            setRemovalCode('');
          }}
        >
          <OtpField value={removalCode} onChange={setRemovalCode} autoFocus={false} />
          <ErrorText text={error} />
          <button type="submit" className="btn btn-danger" disabled={removalCode.length !== 6}>
            {L.removeMfa}
          </button>
        </form>
      )}
    </Section>
  );
}
