import { describe, expect, it } from 'vitest';
import { BUCKET_MESSAGES as M } from './messages';
import { countProblem, fileProblem, nameProblem, urlProblem } from './validation';

describe("the add and split forms' checks (spec 01 §5)", () => {
  it('words each refusal as the spec does', () => {
    expect(nameProblem('')).toBe(M.mandatory);
    expect(nameProblem('main bucket')).toBe(M.badName);
    expect(nameProblem('main_bucket-1.0')).toBeUndefined();
    expect(fileProblem(undefined)).toBe(M.mandatory);
    expect(fileProblem(new File(['{}'], 'bucket.txt'))).toBe(M.notJsonFile);
    expect(fileProblem(new File(['{}'], 'bucket.JSON'))).toBeUndefined();
    expect(urlProblem('ftp://example.com/b.json')).toBe(M.badUrl);
    expect(urlProblem('https://example.com/b.json')).toBeUndefined();
    expect(countProblem('', 5)).toBe(M.mandatory);
    expect(countProblem('1.5', 5)).toBe(M.decimal);
    expect(countProblem('6', 5)).toBe(M.tooHigh);
    expect(countProblem('5', 5)).toBeUndefined();
  });
});
