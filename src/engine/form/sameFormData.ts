import { isInternalField } from './formSchema';

/** '', null, undefined and [] all mean "nothing entered" (spec 01 §4: empty versus undefined). */
function isEmpty(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === '' ||
    (Array.isArray(value) && value.length === 0)
  );
}

/**
 * Whether two form states hold the same data, for the unsaved-changes guard: empty versus
 * undefined differences and internal fields (keys starting with `_`) do not count.
 */
export function sameFormData(a: unknown, b: unknown): boolean {
  if (isEmpty(a) && isEmpty(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => sameFormData(item, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)].filter((k) => !isInternalField(k)));
    return [...keys].every((key) => sameFormData(a[key], b[key]));
  }
  return Object.is(a, b);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
