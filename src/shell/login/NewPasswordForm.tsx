import { useState, type FormEvent } from 'react';
import { TextField } from '../../design/components/TextField';
import { LABELS } from '../messages';

interface NewPasswordFormProps {
  owner: string | null;
  rules: string[];
  error: string | null;
  pending: boolean;
  prompt: string;
  onSubmit: (entry: { password: string; retyped: string }) => void;
}

/** A new password typed twice, with the policy's rules: for the reset and invitation pages. */
export function NewPasswordForm({
  owner,
  rules,
  error,
  pending,
  prompt,
  onSubmit,
}: NewPasswordFormProps) {
  const [password, setPassword] = useState('');
  const [retyped, setRetyped] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({ password, retyped });
  };
  return (
    <form onSubmit={submit} noValidate aria-label={prompt}>
      {owner && (
        <p>
          {prompt}: <strong>{owner}</strong>
        </p>
      )}
      <TextField
        label={LABELS.newPassword}
        type="password"
        autoComplete="new-password"
        autoFocus
        required
        disabled={!owner}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <TextField
        label={LABELS.retypeNewPassword}
        type="password"
        autoComplete="new-password"
        required
        disabled={!owner}
        value={retyped}
        onChange={(e) => setRetyped(e.target.value)}
      />
      {rules.length > 0 && (
        <p className="login-hint">
          {LABELS.passwordRules} {rules.join(', ')}.
        </p>
      )}
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      <button
        type="submit"
        className="btn btn-primary"
        disabled={!owner || pending || !password || !retyped}
      >
        {LABELS.setPassword}
      </button>
    </form>
  );
}
