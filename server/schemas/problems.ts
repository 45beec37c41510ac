/**
 * A mistake schemas:check found: the file, the JSON pointer into it, and what was expected.
 * Printed as `schemas/screens/x.screen.json#/list/columns/2/field: ...`.
 */
export interface SchemaProblem {
  file: string;
  pointer: string;
  message: string;
}

export const formatProblem = ({ file, pointer, message }: SchemaProblem) =>
  `${file}#${pointer}: ${message}`;

/** A JSON pointer from its steps, each escaped as RFC 6901 says. */
export const pointerOf = (...steps: (string | number)[]) =>
  steps.map((step) => `/${String(step).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

/** A pointer one or more steps below `pointer`. */
export const below = (pointer: string, ...steps: (string | number)[]) =>
  pointer + pointerOf(...steps);
