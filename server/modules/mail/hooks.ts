import { BadRequest } from '../../errors.ts';
import type { EntityDocument } from '../entities/documents.ts';
import type { EntityHooks } from '../entities/hooks.ts';
import { MAIL_MESSAGES as M } from './messages.ts';

/** Whether the draft names another SMTP server than the stored settings. */
export const otherServer = (stored: EntityDocument, draft: EntityDocument) =>
  (draft.host !== undefined && draft.host !== stored.host) ||
  (draft.port !== undefined && draft.port !== stored.port);

/**
 * The mail settings on the schema engine (docs/mail.md): the stored password goes only to the
 * server it was saved for, or whoever may edit the settings could point them at their own
 * server and receive the password they cannot read.
 */
export function mailHooks(): EntityHooks {
  return {
    beforeWrite({ document, previous, keptSecrets }) {
      if (previous && otherServer(previous, document) && keptSecrets?.includes('password'))
        throw new BadRequest(M.passwordForNewHost, 'password');
    },
  };
}
