import { createEffect, createEvent, createStore, sample } from 'effector';
import { applyTheme, storedTheme, storeTheme, systemTheme, type Theme } from './theme';

export const themeStarted = createEvent();
export const themeToggled = createEvent();
export const systemThemeChanged = createEvent<Theme>();

/** The user's stored choice wins; without one the theme follows the system. */
export const $themeChosenByUser = createStore<boolean>(storedTheme() !== undefined).on(
  themeToggled,
  () => true,
);
export const $theme = createStore<Theme>(storedTheme() ?? systemTheme()).on(
  themeToggled,
  (theme) => (theme === 'dark' ? 'light' : 'dark'),
);

export const applyThemeFx = createEffect(applyTheme);
export const storeThemeFx = createEffect(storeTheme);

// when the system theme changes and the user never chose one, follow the system
sample({
  clock: systemThemeChanged,
  filter: $themeChosenByUser.map((chosen) => !chosen),
  target: $theme,
});

// when the app starts or the theme changes, put it on <html data-theme>
sample({ clock: [themeStarted, $theme.updates], source: $theme, target: applyThemeFx });

// when the user toggles the theme, remember the choice
sample({ clock: themeToggled, source: $theme, target: storeThemeFx });
