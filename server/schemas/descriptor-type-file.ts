import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../paths.ts';
import { DESCRIPTOR_TYPE_FILE, descriptorTypeSource } from './descriptor-type.ts';
import type { SchemaProblem } from './problems.ts';
import type { JsonSchema } from './registry.ts';

/**
 * The stamp the generated file carries: a digest of what the generator makes of the
 * meta-schema. schemas:check compares stamps, which needs no formatter (prettier alone costs a
 * tenth of the check's time); a change of the meta-schema or of the generator changes it.
 */
const stampOf = (metaSchema: JsonSchema) =>
  `// stamp: ${createHash('sha256').update(descriptorTypeSource(metaSchema)).digest('hex').slice(0, 16)}`;

/** The descriptor type's file as it should read: generated, stamped, formatted as prettier would. */
export async function formattedDescriptorType(metaSchema: JsonSchema): Promise<string> {
  // Loaded only here: the server itself never needs prettier.
  const prettier = await import('prettier');
  const filepath = join(PROJECT_ROOT, DESCRIPTOR_TYPE_FILE);
  const options = (await prettier.resolveConfig(filepath)) ?? {};
  const source = `${stampOf(metaSchema)}\n${descriptorTypeSource(metaSchema)}`;
  return prettier.format(source, { ...options, filepath });
}

/** A problem when the committed descriptor type is not what the meta-schema gives now. */
export function descriptorTypeProblems(metaSchema: JsonSchema): SchemaProblem[] {
  let actual = '';
  try {
    actual = readFileSync(join(PROJECT_ROOT, DESCRIPTOR_TYPE_FILE), 'utf8');
  } catch {
    // missing: reported below as out of date
  }
  if (actual.startsWith(`${stampOf(metaSchema)}\n`)) return [];
  return [
    {
      file: DESCRIPTOR_TYPE_FILE,
      pointer: '',
      message:
        'is out of date with schemas/meta/screen.meta.schema.json; expected what `npm run schemas:types` writes',
    },
  ];
}
