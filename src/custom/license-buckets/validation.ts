import { BUCKET_FILE_LIMIT, BUCKET_MESSAGES as M, BUCKET_NAME } from './messages';

/** Spec 01 §5's checks of a bucket name, before anything is sent. */
export function nameProblem(name: string): string | undefined {
  if (name.trim() === '') return M.mandatory;
  if (!BUCKET_NAME.test(name)) return M.badName;
  return undefined;
}

export function fileProblem(file: File | undefined): string | undefined {
  if (!file) return M.mandatory;
  if (!/\.json$/i.test(file.name)) return M.notJsonFile;
  if (file.size >= BUCKET_FILE_LIMIT) return M.fileTooLarge;
  return undefined;
}

export function urlProblem(text: string): string | undefined {
  if (text.trim() === '') return M.mandatory;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? undefined : M.badUrl;
  } catch {
    return M.badUrl;
  }
}

/** A count of licenses: a whole number from 1 up to `available`. */
export function countProblem(text: string, available: number): string | undefined {
  if (text.trim() === '') return M.mandatory;
  const value = Number(text);
  if (!Number.isFinite(value)) return M.mandatory;
  if (!Number.isInteger(value)) return M.decimal;
  if (value > available) return M.tooHigh;
  if (value < 1) return M.mandatory;
  return undefined;
}
