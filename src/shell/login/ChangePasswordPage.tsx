import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { TextField } from '../../design/components/TextField';
import {
  $changePasswordError,
  $changePasswordPending,
  passwordChangeSubmitted,
} from '../session/model';
import { LABELS, PAGE_TITLES } from '../messages';

/**
 * Reached when login answers CREDENTIALS_EXPIRED: current password, new password twice;
 * on success the console logs in with the new password and goes home.
 */
export function ChangePasswordPage() {
  const { userName = '' } = useParams();
  const [error, pending, submit] = useUnit([
    $changePasswordError,
    $changePasswordPending,
    passwordChangeSubmitted,
  ]);
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword1, setNewPassword1] = useState('');
  const [newPassword2, setNewPassword2] = useState('');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit({ userName, oldPassword, newPassword1, newPassword2 });
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="change-password-title">
      <h1 id="change-password-title">{PAGE_TITLES.changePassword}</h1>
      <p>{userName}</p>
      <TextField
        label={LABELS.currentPassword}
        type="password"
        autoComplete="current-password"
        autoFocus
        required
        value={oldPassword}
        onChange={(e) => setOldPassword(e.target.value)}
      />
      <TextField
        label={LABELS.newPassword}
        type="password"
        autoComplete="new-password"
        required
        value={newPassword1}
        onChange={(e) => setNewPassword1(e.target.value)}
      />
      <TextField
        label={LABELS.retypeNewPassword}
        type="password"
        autoComplete="new-password"
        required
        value={newPassword2}
        onChange={(e) => setNewPassword2(e.target.value)}
      />
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      <button
        type="submit"
        className="btn btn-primary"
        disabled={pending || !oldPassword || !newPassword1 || !newPassword2}
      >
        {LABELS.changePassword}
      </button>
    </form>
  );
}
