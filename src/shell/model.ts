import { combine, sample } from 'effector';
import { screensRequested } from '../engine/descriptors/model';
import './onboarding/model';
import { $anonAccessEnabled, $identity, $isAnonymous } from './session/model';

/** Screens are for signed-in users, and for anonymous visitors where anonymous access is on. */
const $mayUseScreens = combine(
  $isAnonymous,
  $anonAccessEnabled,
  (anonymous, allowed) => !anonymous || allowed,
);

// when who is signed in changes (start, login, logout), load the screens that user may use
sample({
  clock: $identity.updates,
  source: $mayUseScreens,
  filter: (mayUse, identity) => mayUse && identity !== null,
  target: screensRequested,
});
