/** Texts the API layer produces itself (spec 01 §5, error message parsing order). */
export const NO_RESPONSE_MESSAGE = 'No response received from server';
