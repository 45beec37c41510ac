import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../paths.ts';
import { DESCRIPTOR_TYPE_FILE } from './descriptor-type.ts';
import { formattedDescriptorType } from './descriptor-type-file.ts';

/** `npm run schemas:types`: rewrites the descriptor type from the meta-schema. */
async function main() {
  const file = join(PROJECT_ROOT, DESCRIPTOR_TYPE_FILE);
  const metaSchema = JSON.parse(
    readFileSync(join(PROJECT_ROOT, 'schemas/meta/screen.meta.schema.json'), 'utf8'),
  );
  writeFileSync(file, await formattedDescriptorType(metaSchema));
  console.log(`schemas:types: wrote ${DESCRIPTOR_TYPE_FILE}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
