import { splitPath } from '../artifacts/paths.ts';

/**
 * Names the View action offers a code view for (spec 02 §4 `view`): source, build and
 * configuration files that are text by convention. A file outside the list is still viewed
 * when its stored mime type says it is text.
 */
const TEXT_EXTENSIONS = new Set(
  (
    'txt md markdown rst adoc log csv tsv json jsonl yaml yml toml ini cfg conf properties env ' +
    'xml pom xsd xsl wsdl html htm css scss less js mjs cjs jsx ts tsx map ' +
    'java kt kts groovy gradle scala sbt clj py pyi rb go rs c h cc cpp hpp cs swift m php pl ' +
    'lua r sql sh bash zsh fish ps1 bat cmd tf hcl proto graphql gql ivy sha1 sha256 sha512 md5 ' +
    'asc lock mod sum spec nuspec podspec dockerfile gitignore editorconfig'
  ).split(' '),
);
/** Whole names that are text without an extension. */
const TEXT_NAMES = new Set([
  'dockerfile',
  'makefile',
  'license',
  'readme',
  'changelog',
  'notice',
  'jenkinsfile',
  'gemfile',
  'rakefile',
  'procfile',
]);
const TEXT_MIME =
  /^(text\/|application\/(json|xml|javascript|x-yaml|yaml|toml|x-sh)\b|.*\+(json|xml)$)/;

/** Whether a file is text by its name or its stored mime type. */
export function looksLikeText(path: string, mimeType?: string | null): boolean {
  const name = splitPath(path).name.toLowerCase();
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.slice(dot + 1) : name.replace(/^\./, '');
  if (TEXT_NAMES.has(name) || TEXT_EXTENSIONS.has(extension)) return true;
  return mimeType ? TEXT_MIME.test(mimeType) : false;
}

/** A NUL byte in the first 8 KiB means the content is not text, whatever its name says. */
export const isBinary = (text: string) => text.slice(0, 8 * 1024).includes('\u0000');
