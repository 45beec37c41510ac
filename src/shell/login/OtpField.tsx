import { TextField } from '../../design/components/TextField';
import { LABELS } from '../messages';

/** The six-digit code box: numeric keyboard, one-time-code autofill, digits only. */
export function OtpField({
  value,
  onChange,
  autoFocus = true,
}: {
  value: string;
  onChange: (code: string) => void;
  autoFocus?: boolean;
}) {
  return (
    <TextField
      label={LABELS.verificationCode}
      name="otp"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]{6}"
      maxLength={6}
      autoFocus={autoFocus}
      required
      value={value}
      onChange={(event) => onChange(event.target.value.replace(/\D/g, ''))}
    />
  );
}
