import { BadRequest } from '../../errors.ts';

export type TokenKind = 'punct' | 'string' | 'number' | 'word' | 'end';

export interface Token {
  kind: TokenKind;
  /** The punctuation or word itself, a string's decoded value, a number's digits. */
  text: string;
  /** Where the token starts, counted from 1 as editors count columns. */
  position: number;
}

const PUNCTUATION = new Set(['.', '(', ')', '{', '}', '[', ']', ':', ',']);

/** A query the parser cannot read: 400 with where it stopped and what it wanted there. */
export class AqlSyntaxError extends BadRequest {
  constructor(message: string, position: number) {
    super(`AQL: ${message} at position ${position}`);
  }
}

/** How a token reads in an error message. */
export function describe(token: Token): string {
  if (token.kind === 'end') return 'the end of the query';
  if (token.kind === 'string') return `"${token.text}"`;
  return `'${token.text}'`;
}

// Sticky patterns read at a position without copying the rest of the query for each token.
const WHITESPACE = /\s+/y;
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WORD = /[A-Za-z_$][\w$]*/y;
/** The rest of a string up to its closing quote, when it has no escape and no control character. */
// eslint-disable-next-line no-control-regex -- control characters are what it must stop at
const PLAIN_STRING_BODY = /[^"\\\u0000-\u001f]*/y;

/** The text `pattern` matches at `at`, or undefined. */
function matchAt(pattern: RegExp, source: string, at: number): string | undefined {
  pattern.lastIndex = at;
  return pattern.exec(source)?.[0];
}

function readString(source: string, start: number): { value: string; end: number } {
  // The common case, no escape: the text between the quotes is the value.
  const plain = matchAt(PLAIN_STRING_BODY, source, start + 1) ?? '';
  const plainEnd = start + 1 + plain.length;
  if (source[plainEnd] === '"') return { value: plain, end: plainEnd + 1 };
  // JSON's string rules: the same escapes, no raw control characters.
  let end = start + 1;
  while (end < source.length && source[end] !== '"') {
    if (source[end] === '\\') end++;
    else if (source.charCodeAt(end) < 0x20)
      throw new AqlSyntaxError('a control character inside a string', end + 1);
    end++;
  }
  if (end >= source.length) throw new AqlSyntaxError('a string that is never closed', start + 1);
  try {
    return { value: JSON.parse(source.slice(start, end + 1)) as string, end: end + 1 };
  } catch {
    throw new AqlSyntaxError('an invalid escape inside a string', start + 1);
  }
}

/** Splits a query into tokens; the last one is always `end`. */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < source.length) {
    const char = source[at];
    const space = matchAt(WHITESPACE, source, at);
    if (space) {
      at += space.length;
    } else if (PUNCTUATION.has(char)) {
      tokens.push({ kind: 'punct', text: char, position: at + 1 });
      at++;
    } else if (char === '"') {
      const { value, end } = readString(source, at);
      tokens.push({ kind: 'string', text: value, position: at + 1 });
      at = end;
    } else {
      const number = matchAt(NUMBER, source, at);
      const lexeme = number ?? matchAt(WORD, source, at);
      if (!lexeme) throw new AqlSyntaxError(`unexpected character '${char}'`, at + 1);
      tokens.push({ kind: number ? 'number' : 'word', text: lexeme, position: at + 1 });
      at += lexeme.length;
    }
  }
  tokens.push({ kind: 'end', text: '', position: source.length + 1 });
  return tokens;
}
