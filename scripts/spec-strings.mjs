// `npm run spec:strings [-- --missing] [-- --spec <dir>]`: how many of the specification's
// quoted user-facing messages appear verbatim in the product (console, server, schemas; tests
// left out). The spec quotes what a person reads in "double" or 'single' quotes; this counts
// every quoted text that reads like a sentence or a label (starts with a capital letter and
// holds a space). Placeholders the spec writes as {name}, #name or a lone N, X or Y match any
// short text, as a template literal does in the code. The figure is a guide to how much of the
// spec's wording the product speaks, not a gate: some messages belong to areas Depot has not
// built yet.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const specDir = args.includes('--spec')
  ? resolve(args[args.indexOf('--spec') + 1])
  : resolve(root, '..', 'shared', 'spec');
const listMissing = args.includes('--missing');

const PRODUCT_DIRS = ['src', 'server', 'schemas'];
const SOURCE_FILE = /\.(ts|tsx|mjs|js|json)$/;
const TEST_FILE = /\.(test|e2e|fixture)\.(ts|tsx)$|\.generated\.ts$/;

/** The quoted sentences and labels of every spec document, once each. */
function specStrings() {
  const quoted = /"([A-Z][^"\n]{4,200})"|'([A-Z][^'\n]{4,200})'/g;
  const found = new Set();
  for (const file of readdirSync(specDir).filter((name) => name.endsWith('.md'))) {
    for (const match of readFileSync(join(specDir, file), 'utf8').matchAll(quoted)) {
      const text = match[1] ?? match[2];
      if (text.includes(' ')) found.add(text);
    }
  }
  return [...found].sort();
}

/** Every product source file's text, tests left out. */
function productText() {
  const texts = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (SOURCE_FILE.test(name) && !TEST_FILE.test(name))
        texts.push(readFileSync(path, 'utf8'));
    }
  };
  for (const dir of PRODUCT_DIRS) walk(join(root, dir));
  return texts.join('\n');
}

/** A spec message as a pattern: literal text, with {placeholders} and a lone N as wildcards. */
function messagePattern(message) {
  const escaped = message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const withPlaceholders = escaped
    .replace(/\\\{[^}]*\\\}/g, '.{1,60}?')
    .replace(/(^| )[NXY]( |$)/g, '$1.{1,30}?$2')
    .replace(/#[a-z]+/gi, '.{1,30}?');
  return new RegExp(withPlaceholders);
}

const messages = specStrings();
const product = productText();
const missing = messages.filter((message) => !messagePattern(message).test(product));
console.log(
  `spec strings in the product: ${messages.length - missing.length} of ${messages.length}`,
);
if (listMissing) for (const message of missing) console.log(`  missing: ${message}`);
