import { describe, expect, it } from 'vitest';
import { allSettled, fork } from 'effector';
import { emptyForm } from './editor';
import { PERMISSION_MESSAGES } from './messages';
import { $creating, $form, $nameError, $saving, saveClicked } from './model';
import { ILLEGAL_NAME_MESSAGE } from '../../../server/schemas/validation-wording.ts';

describe('the permission editor’s name', () => {
  it('refuses a new name with / \\ : | ? < > * or a quote before sending, in the server’s words', async () => {
    for (const name of ['Bad value /*?<>|', 'a:b', 'a"b', 'a\\b']) {
      const scope = fork({
        values: [
          [$form, { ...emptyForm(), name }],
          [$creating, true],
        ],
      });
      await allSettled(saveClicked, { scope });
      expect(scope.getState($nameError), name).toBe(PERMISSION_MESSAGES.illegalCharacters);
      expect(scope.getState($saving)).toBe(false);
    }
    expect(PERMISSION_MESSAGES.illegalCharacters).toBe(ILLEGAL_NAME_MESSAGE);
  });

  it('still says an empty name first', async () => {
    const scope = fork({
      values: [
        [$form, { ...emptyForm(), name: '  ' }],
        [$creating, true],
      ],
    });
    await allSettled(saveClicked, { scope });
    expect(scope.getState($nameError)).toBe(PERMISSION_MESSAGES.nameEmpty);
  });
});
