import { describe, expect, it, vi } from 'vitest';
import { allSettled, fork } from 'effector';
import { emptyForm, type EditorForm } from './editor';
import { PERMISSION_MESSAGES } from './messages';
import {
  $choices,
  $creating,
  $form,
  $nameError,
  $saving,
  editorOpened,
  loadFx,
  saveClicked,
} from './model';
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

describe('the permission editor opened again before its answer', () => {
  it('keeps the form of the target open now when the earlier answer comes late', async () => {
    type Loaded = Awaited<ReturnType<typeof loadFx>>;
    const answer = (form: EditorForm): Loaded => ({
      principals: { users: [], groups: [] },
      repositories: [],
      form,
      managerRows: null,
    });
    let answerTeam: (loaded: Loaded) => void = () => {};
    const load = vi.fn(async ({ name }: { name: string | null }) =>
      name === 'team'
        ? new Promise<Loaded>((resolve) => (answerTeam = resolve))
        : answer(emptyForm()),
    );
    const scope = fork({ handlers: [[loadFx, load]] });
    const team = allSettled(editorOpened, { scope, params: { name: 'team' } });
    // New, opened before the target's answer; settles along with it (one scope).
    const created = allSettled(editorOpened, { scope, params: { name: null } });
    await vi.waitFor(() => expect(scope.getState($form)).toEqual(emptyForm()));
    answerTeam(answer({ ...emptyForm(), name: 'team' }));
    await Promise.all([team, created]);
    expect(load).toHaveBeenCalledTimes(2);
    expect(scope.getState($form)).toEqual(emptyForm());
    expect(scope.getState($creating)).toBe(true);
    expect(scope.getState($choices)).toEqual({ users: [], groups: [], repositories: [] });
  });
});
