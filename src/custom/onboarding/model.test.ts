import { describe, expect, it, vi } from 'vitest';
import { allSettled, fork } from 'effector';
import { navigateFx } from '../../shell/navigation/model';
import { $offerPersonalization, $offerQuickSetup } from '../../shell/onboarding/model';
import { ADMIN_HOME_PATH, QUICK_SETUP_PATH } from '../../shell/messages';
import * as model from './model';

function wizard(offerQuickSetup: boolean | null) {
  const save = vi.fn(async () => ({ personalization: 'done', offerPersonalization: false }));
  const navigate = vi.fn();
  const scope = fork({
    values: [
      [$offerQuickSetup, offerQuickSetup],
      [$offerPersonalization, true],
    ],
    handlers: [
      [model.saveFx, save],
      [navigateFx, navigate],
    ],
  });
  const run = async (event: { (): void } | ((p: never) => void), params?: unknown) =>
    allSettled(event as never, { scope, params: params as never });
  return { scope, save, navigate, run };
}

describe('the personalisation wizard (spec 03 "Onboarding")', () => {
  it('goes init, purpose, details, features; each step needs its fields before Next', async () => {
    const { scope, run, save, navigate } = wizard(true);
    await run(model.pageMounted);
    await run(model.nextClicked);
    expect(scope.getState(model.$step)).toBe('purpose');
    await run(model.nextClicked);
    expect(scope.getState(model.$step)).toBe('purpose');
    expect(scope.getState(model.$errors)).toEqual({ purpose: 'You must fill in this field' });

    await run(model.fieldChanged, { purpose: 'Commercial' });
    await run(model.nextClicked);
    await run(model.fieldChanged, { role: 'Other' });
    await run(model.nextClicked);
    expect(scope.getState(model.$step)).toBe('details');
    expect(scope.getState(model.$errors)).toEqual({
      companyName: 'You must fill in this field',
      otherRole: 'You must fill in this field',
    });
    await run(model.fieldChanged, { companyName: 'Acme', otherRole: 'QA' });
    await run(model.nextClicked);
    expect(scope.getState(model.$step)).toBe('features');
    await run(model.nextClicked);
    expect(scope.getState(model.$errors)).toEqual({
      desiredFeatures: 'Select at least one feature',
    });
    expect(save).not.toHaveBeenCalled();

    await run(model.featureToggled, 'SBOM');
    await run(model.featureToggled, 'CI/CD');
    await run(model.featureToggled, 'SBOM');
    await run(model.nextClicked);
    expect(save).toHaveBeenCalledWith({
      desiredFeatures: ['CI/CD'],
      purpose: 'Commercial',
      companyName: 'Acme',
      role: 'Other',
      otherRole: 'QA',
    });
    expect(scope.getState($offerPersonalization)).toBe(false);
    expect(navigate).toHaveBeenCalledWith({ to: QUICK_SETUP_PATH, replace: true });
  });

  it('a personal purpose needs no company; Back keeps the answers', async () => {
    const { scope, run } = wizard(false);
    await run(model.pageMounted);
    await run(model.nextClicked);
    await run(model.fieldChanged, { purpose: 'Personal' });
    await run(model.nextClicked);
    await run(model.fieldChanged, { role: 'Software Developer' });
    await run(model.nextClicked);
    expect(scope.getState(model.$step)).toBe('features');
    await run(model.backClicked);
    expect(scope.getState(model.$step)).toBe('details');
    expect(scope.getState(model.$draft).role).toBe('Software Developer');
  });

  it('Skip records a skip and goes on to the topology when the quick setup is behind', async () => {
    const { scope, run, save, navigate } = wizard(false);
    await run(model.pageMounted);
    await run(model.skipClicked);
    expect(save).toHaveBeenCalledWith({ skipped: true });
    expect(scope.getState($offerPersonalization)).toBe(false);
    expect(navigate).toHaveBeenCalledWith({ to: ADMIN_HOME_PATH, replace: true });
  });
});
