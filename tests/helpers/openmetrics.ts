/**
 * A strict enough reader of the OpenMetrics text format (the parts Depot writes): families
 * from `# TYPE` and `# HELP`, samples `name{label="value",...} number`, the closing `# EOF`.
 * Each sample must belong to a family declared before it, with a suffix its type allows;
 * anything else throws, naming the line.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  type: string;
  help?: string;
  samples: Sample[];
}

const SUFFIXES: Record<string, string[]> = {
  counter: ['_total', '_created'],
  gauge: [''],
  histogram: ['_bucket', '_sum', '_count', '_created'],
  summary: ['', '_sum', '_count', '_created'],
  unknown: [''],
  info: ['_info'],
  stateset: [''],
  gaugehistogram: ['_bucket', '_gsum', '_gcount'],
};

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)( \S+)?$/;
const LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(,|$)/y;

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const match = LABEL.exec(text);
    if (!match) throw new Error(`bad labels in: ${line}`);
    if (match[1] in labels) throw new Error(`label ${match[1]} twice in: ${line}`);
    labels[match[1]] = match[2].replace(/\\n/g, '\n').replace(/\\(["\\])/g, '$1');
  }
  return labels;
}

function parseValue(text: string, line: string): number {
  // The grammar's literals are ABNF strings, which are case-insensitive (prom-client writes `Nan`).
  if (/^\+?inf(inity)?$/i.test(text)) return Infinity;
  if (/^-inf(inity)?$/i.test(text)) return -Infinity;
  if (/^nan$/i.test(text)) return NaN;
  const value = Number(text);
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text) || Number.isNaN(value))
    throw new Error(`bad value in: ${line}`);
  return value;
}

function familyOf(families: Map<string, Family>, sample: string, line: string) {
  for (const [name, family] of families)
    for (const suffix of SUFFIXES[family.type] ?? ['']) if (sample === name + suffix) return family;
  throw new Error(`sample of no declared family: ${line}`);
}

export function parseOpenMetrics(text: string): Map<string, Family> {
  const lines = text.split('\n');
  if (lines.at(-1) !== '') throw new Error('the text does not end with a newline');
  lines.pop();
  if (lines.at(-1) !== '# EOF') throw new Error('the text does not end with # EOF');
  lines.pop();
  const families = new Map<string, Family>();
  for (const line of lines) {
    const meta = /^# (TYPE|HELP|UNIT) (\S+)(?: (.*))?$/.exec(line);
    if (meta) {
      const [, kind, name, rest = ''] = meta;
      if (!METRIC_NAME.test(name)) throw new Error(`bad metric name in: ${line}`);
      const family = families.get(name) ?? { type: 'unknown', samples: [] };
      if (kind === 'TYPE') {
        if (!(rest in SUFFIXES)) throw new Error(`unknown type in: ${line}`);
        family.type = rest;
      }
      if (kind === 'HELP') family.help = rest;
      families.set(name, family);
      continue;
    }
    if (line.startsWith('#')) throw new Error(`unexpected comment: ${line}`);
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`bad sample line: ${line}`);
    const [, name, , labelText = '', valueText] = match;
    familyOf(families, name, line).samples.push({
      name,
      labels: parseLabels(labelText, line),
      value: parseValue(valueText, line),
    });
  }
  return families;
}

/** The value of the one sample of `name` whose labels include `labels`; 0 when none has. */
export function sampleValue(
  families: Map<string, Family>,
  name: string,
  labels: Record<string, string> = {},
): number {
  const matches = [...families.values()]
    .flatMap((family) => family.samples)
    .filter(
      (sample) =>
        sample.name === name &&
        Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    );
  if (matches.length > 1) throw new Error(`${matches.length} samples of ${name} match`);
  return matches[0]?.value ?? 0;
}
