import { describe, expect, it } from 'vitest';
import { allSettled, fork } from 'effector';
import { setMeUpRequested } from '../../shell/layout/quickActions';
import { $open } from './model';

describe('Set Me Up from the quick actions menu', () => {
  it('opens when the menu asks for it: the shell asks, the feature opens', async () => {
    const scope = fork();
    await allSettled(setMeUpRequested, { scope });
    expect(scope.getState($open)).toBe(true);
  });
});
