import { useState, type FormEvent } from 'react';
import type { MfaEnrollment as Offer } from '../../api/auth';
import { LABELS, MFA_TEXTS } from '../messages';
import { OtpField } from './OtpField';

interface MfaEnrollmentProps {
  offer: Offer | null;
  error: string | null;
  pending: boolean;
  onSubmit: (code: string) => void;
}

/**
 * The QR code and secret of an offered enrollment, and the code that confirms it. Used at
 * sign-in (MFA enforced) and in the user profile. The QR code is the server's SVG shown as
 * an image: an image cannot run whatever the markup holds.
 */
export function MfaEnrollment({ offer, error, pending, onSubmit }: MfaEnrollmentProps) {
  const [code, setCode] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(code);
  };
  return (
    <form onSubmit={submit} noValidate aria-label={MFA_TEXTS.enrollForm}>
      <p>{MFA_TEXTS.enrollPrompt}</p>
      {offer ? (
        <>
          <img
            className="mfa-qr"
            src={`data:image/svg+xml;utf8,${encodeURIComponent(offer.qrCode)}`}
            alt={MFA_TEXTS.qrAlt}
            width={200}
            height={200}
          />
          <p>
            {LABELS.mfaSecret}: <code data-testid="mfa-secret">{offer.secret}</code>
          </p>
        </>
      ) : (
        <p aria-busy="true">{LABELS.loading}</p>
      )}
      <OtpField value={code} onChange={setCode} />
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      <button
        type="submit"
        className="btn btn-primary"
        disabled={!offer || pending || code.length !== 6}
      >
        {LABELS.verify}
      </button>
    </form>
  );
}
