import { join } from 'node:path';
import { PROJECT_ROOT } from '../paths.ts';
import { DESCRIPTOR_TYPE_FILE, descriptorTypeSource } from './descriptor-type.ts';
import type { JsonSchema } from './registry.ts';

/** The descriptor type's file as it should read: generated, then formatted as prettier would. */
export async function formattedDescriptorType(metaSchema: JsonSchema): Promise<string> {
  // Loaded only here: the server itself never needs prettier.
  const prettier = await import('prettier');
  const filepath = join(PROJECT_ROOT, DESCRIPTOR_TYPE_FILE);
  const options = (await prettier.resolveConfig(filepath)) ?? {};
  return prettier.format(descriptorTypeSource(metaSchema), { ...options, filepath });
}
