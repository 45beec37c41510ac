/**
 * Maven's version order (ComparableVersion, simplified to what repositories meet): versions
 * are split into numbers and words at dots, dashes and digit/letter changes; numbers compare
 * as numbers; known qualifiers rank alpha < beta < milestone < rc < snapshot < release < sp;
 * unknown words come after them, alphabetically. `1.0` = `1.0.0`, `1.0-rc1` < `1.0`.
 */
const QUALIFIERS = ['alpha', 'beta', 'milestone', 'rc', 'snapshot', '', 'sp'];
const ALIASES: Record<string, string> = {
  a: 'alpha',
  b: 'beta',
  m: 'milestone',
  cr: 'rc',
  ga: '',
  final: '',
  release: '',
};

type Item = number | string;

function items(version: string): Item[] {
  const tokens = version.toLowerCase().match(/\d+|[a-z]+/g) ?? [];
  const parsed = tokens.map((token) =>
    /^\d+$/.test(token) ? Number(token) : (ALIASES[token] ?? token),
  );
  // Trailing zeros and release words do not change a version: 1.0.0 = 1.
  while (parsed.length > 1 && (parsed.at(-1) === 0 || parsed.at(-1) === '')) parsed.pop();
  return parsed;
}

function qualifierRank(word: string): [number, string] {
  const known = QUALIFIERS.indexOf(word);
  return known >= 0 ? [known, ''] : [QUALIFIERS.length, word];
}

function compareItems(a: Item | undefined, b: Item | undefined): number {
  if (a === undefined && b === undefined) return 0;
  // A missing item is a release: against a number it is 0, against a word the release rank.
  if (a === undefined) return -compareItems(b, undefined);
  if (b === undefined) return typeof a === 'number' ? Math.sign(a) : compareItems(a, '');
  if (typeof a === 'number' && typeof b === 'number') return Math.sign(a - b);
  if (typeof a === 'number') return 1; // 1.0.1 > 1.0-rc
  if (typeof b === 'number') return -1;
  const [rankA, wordA] = qualifierRank(a);
  const [rankB, wordB] = qualifierRank(b);
  return rankA !== rankB ? Math.sign(rankA - rankB) : wordA.localeCompare(wordB);
}

export function compareMavenVersions(a: string, b: string): number {
  const left = items(a);
  const right = items(b);
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const order = compareItems(left[i], right[i]);
    if (order !== 0) return order;
  }
  return 0;
}
