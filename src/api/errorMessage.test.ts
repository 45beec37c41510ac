import { describe, expect, it } from 'vitest';
import { ApiError } from './ApiError';
import { errorMessage } from './errorMessage';
import { NO_RESPONSE_MESSAGE } from './messages';

const answered = (status: number, body: unknown) =>
  new ApiError({
    message: `Request failed with status code ${status}`,
    status,
    body,
    method: 'GET',
    url: '/x',
  });
const unanswered = () => new ApiError({ message: 'Failed to fetch', method: 'GET', url: '/x' });

describe('errorMessage follows spec 01 §5 order', () => {
  it('1. reads the errors array: message of each entry', () => {
    expect(
      errorMessage(answered(401, { errors: [{ status: 401, message: 'Bad credentials' }] })),
    ).toBe('Bad credentials');
  });

  it('1. prefers detail over message in an entry and joins several entries', () => {
    const body = {
      errors: [{ detail: 'first detail', message: 'ignored' }, { message: 'second' }],
    };
    expect(errorMessage(answered(400, body))).toBe('first detail\nsecond');
  });

  it('1. unpacks JSON-encoded messages', () => {
    const body = {
      errors: [{ message: JSON.stringify({ errors: [{ message: 'Inner message' }] }) }],
    };
    expect(errorMessage(answered(400, body))).toBe('Inner message');
    const plain = { errors: [{ message: '{"message":"Packed"}' }] };
    expect(errorMessage(answered(400, plain))).toBe('Packed');
  });

  it('1. keeps a message that only looks like JSON', () => {
    expect(errorMessage(answered(400, { errors: [{ message: '{not json' }] }))).toBe('{not json');
  });

  it('2. falls to feedbackMsg.error when the errors array is absent or empty', () => {
    const body = { errors: [], feedbackMsg: { error: 'Feedback error' }, error: 'e', message: 'm' };
    expect(errorMessage(answered(400, body))).toBe('Feedback error');
  });

  it('2. the errors array wins over feedback error', () => {
    const body = { errors: [{ message: 'From array' }], feedbackMsg: { error: 'Feedback error' } };
    expect(errorMessage(answered(400, body))).toBe('From array');
  });

  it('3. then `error`, before `message`', () => {
    expect(errorMessage(answered(400, { error: 'The error', message: 'The message' }))).toBe(
      'The error',
    );
  });

  it('4. then `message`', () => {
    expect(errorMessage(answered(409, { message: "User 'bob' already exists" }))).toBe(
      "User 'bob' already exists",
    );
  });

  it('5. then a plain string body', () => {
    expect(errorMessage(answered(502, 'Bad Gateway from proxy'))).toBe('Bad Gateway from proxy');
  });

  it('6. then the supplied default, even when there was no response', () => {
    expect(errorMessage(answered(401, {}), 'Failed to change password')).toBe(
      'Failed to change password',
    );
    expect(errorMessage(unanswered(), 'Failed to change password')).toBe(
      'Failed to change password',
    );
  });

  it('the body wins over the supplied default', () => {
    expect(
      errorMessage(
        answered(400, { errors: [{ message: 'Password fields must be equal' }] }),
        'Fallback',
      ),
    ).toBe('Password fields must be equal');
  });

  it('7. "No response received from server" when nothing answered and no default', () => {
    expect(errorMessage(unanswered())).toBe(NO_RESPONSE_MESSAGE);
    expect(NO_RESPONSE_MESSAGE).toBe('No response received from server');
  });

  it("8. else the error's own message", () => {
    expect(errorMessage(answered(500, undefined))).toBe('Request failed with status code 500');
    expect(errorMessage(new Error('Something broke'))).toBe('Something broke');
  });

  it('ignores blank strings at every step', () => {
    const body = {
      errors: [{ message: '  ' }],
      feedbackMsg: { error: '' },
      error: '',
      message: 'The message',
    };
    expect(errorMessage(answered(400, body))).toBe('The message');
    expect(errorMessage(answered(400, '   '), 'Default')).toBe('Default');
  });

  it('accepts a bare body in place of an error', () => {
    expect(errorMessage({ errors: [{ message: 'Bare' }] })).toBe('Bare');
    expect(errorMessage('plain text')).toBe('plain text');
  });
});
