import { BadRequest, Conflict } from '../../errors.ts';
import type { EntityDocument } from '../entities/documents.ts';
import type { EntityHooks } from '../entities/hooks.ts';
import type { HookServices } from '../entities/hook-registry.ts';
import { LAYOUT_MESSAGES } from './messages.ts';

const REGEXP_FIELDS = ['folderIntegrationRevisionRegExp', 'fileIntegrationRevisionRegExp'];

/** What the body schema cannot say: a distinct descriptor needs its pattern; regexps compile. */
function checkLayout(layout: EntityDocument): void {
  if (layout.distinctiveDescriptorPathPattern && !layout.descriptorPathPattern)
    throw new BadRequest(LAYOUT_MESSAGES.descriptorRequired, 'descriptorPathPattern');
  for (const field of REGEXP_FIELDS) {
    try {
      new RegExp(String(layout[field]));
    } catch {
      throw new BadRequest(LAYOUT_MESSAGES.badRegExp, field);
    }
  }
}

/**
 * Repository layouts on the schema engine (schemas/screens/repo-layouts.screen.json): the
 * built-in ones from schemas/catalogue are fixed documents (listed first, never changed),
 * patterns are checked, and a layout a repository uses cannot be deleted.
 */
export function repoLayoutHooks(services: () => HookServices): EntityHooks {
  return {
    fixed: {
      documents: () => services().catalogue.layouts.map((layout) => ({ ...layout, builtIn: true })),
      refuseChange: (name) => new BadRequest(LAYOUT_MESSAGES.builtIn(name), 'name'),
    },
    beforeWrite({ document }) {
      checkLayout(document);
      // Without a distinct descriptor there is no descriptor pattern, as in the built-in ones.
      return document.distinctiveDescriptorPathPattern
        ? document
        : { ...document, descriptorPathPattern: '' };
    },
    async onDelete(layouts) {
      for (const layout of layouts) {
        const name = String(layout.name);
        const users = await services().repositories.keysUsingLayout(name);
        if (users.length > 0) throw new Conflict(LAYOUT_MESSAGES.inUse(name, users));
      }
    },
  };
}
