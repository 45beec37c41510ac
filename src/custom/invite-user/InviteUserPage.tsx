import { useState, type FormEvent } from 'react';
import { useUnit } from 'effector-react';
import { createEffect, createStore, sample } from 'effector';
import { call } from '../../api/client';
import { errorMessage } from '../../api/errorMessage';
import { TextField } from '../../design/components/TextField';
import { notificationShown } from '../../shell/notifications/model';
import { INVITE_LABELS as L } from './messages';

export const inviteFx = createEffect((body: { name: string; email: string }) =>
  call<{ info: string }>('POST', '/access/entities/users/invite', { json: body }),
);
const $error = createStore<string | null>(null)
  .on(inviteFx.failData, (_, error) => errorMessage(error))
  .reset(inviteFx);
// when the invitation is sent, say to whom
sample({
  clock: inviteFx.doneData,
  fn: ({ info }) => ({ kind: 'success' as const, text: info }),
  target: notificationShown,
});

/** A new user who chooses the password from a mailed link (docs/mail.md). */
export default function InviteUserPage() {
  const [error, pending, invite] = useUnit([$error, inviteFx.pending, inviteFx]);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await invite({ name, email })
      .then(() => {
        setName('');
        setEmail('');
      })
      .catch(() => undefined);
  };
  return (
    <div className="settings-page">
      <h1>{L.title}</h1>
      <p>{L.hint}</p>
      <form onSubmit={submit} noValidate>
        <TextField label={L.name} required value={name} onChange={(e) => setName(e.target.value)} />
        <TextField
          label={L.email}
          type="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        {error && (
          <p className="error-text" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="btn btn-primary" disabled={pending || !name || !email}>
          {L.invite}
        </button>
      </form>
    </div>
  );
}
