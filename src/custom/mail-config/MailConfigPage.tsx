import { useState, type FormEvent } from 'react';
import { useUnit } from 'effector-react';
import { TextField } from '../../design/components/TextField';
import { SettingsScreen } from '../../engine/settings/SettingsScreen';
import type { ScreenComponentProps } from '../../engine/registry';
import { $testError, mailModel, sendTestFx, testRequested } from './model';
import { MAIL_LABELS as L } from './messages';

/**
 * Administration > Configuration > Mail: the SMTP server's form, from its descriptor and
 * entity schema (schemas/), and a test mail, which is this page's own (docs/mail.md).
 */
export default function MailConfigPage({ screen }: ScreenComponentProps) {
  return (
    <SettingsScreen screenId={screen.id} model={mailModel} title={L.title}>
      <TestMail />
    </SettingsScreen>
  );
}

function TestMail() {
  const [error, pending, send] = useUnit([$testError, sendTestFx.pending, testRequested]);
  const [to, setTo] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send(to);
  };
  return (
    <section className="card" aria-labelledby="mail-test-title">
      <h2 id="mail-test-title">{L.testTitle}</h2>
      <p>{L.testHint}</p>
      <form onSubmit={submit} noValidate>
        <TextField
          label={L.testTo}
          type="email"
          value={to}
          onChange={(e) => setTo(e.target.value)}
        />
        {error && (
          <p className="error-text" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="btn" disabled={!to || pending}>
          {L.sendTest}
        </button>
      </form>
    </section>
  );
}
