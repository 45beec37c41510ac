/** Texts the API layer produces itself (spec 01 §5, error message parsing order). */
export const NO_RESPONSE_MESSAGE = 'No response received from server';
/**
 * An error answer's own message when its body says nothing (the last step of that order):
 * plain words naming the status, not the HTTP client's "Request failed with status code 502
 * Bad Gateway: GET <url>".
 */
export const requestFailedMessage = (status: number) =>
  `The request failed (the server answered ${status})`;
