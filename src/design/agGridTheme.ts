import { LocaleModule, ModuleRegistry, themeQuartz } from 'ag-grid-community';

/**
 * AG Grid's Quartz theme with its parameters pointed at Depot's tokens: the grid follows
 * light and dark with the rest of the console, with no second palette to maintain.
 * Imported only by the lazily loaded table, so it stays out of the login route's bundle.
 */
export const depotGridTheme = themeQuartz.withParams({
  accentColor: 'var(--color-accent)',
  backgroundColor: 'var(--color-surface)',
  foregroundColor: 'var(--color-text)',
  textColor: 'var(--color-text)',
  borderColor: 'var(--color-border)',
  chromeBackgroundColor: 'var(--color-surface-muted)',
  headerBackgroundColor: 'var(--color-surface-muted)',
  headerTextColor: 'var(--color-text)',
  subtleTextColor: 'var(--color-text-muted)',
  fontFamily: 'var(--font-family)',
  fontSize: 14,
  headerFontWeight: 600,
  borderRadius: 4,
  wrapperBorderRadius: 6,
  spacing: 6,
  focusShadow: { radius: 0, spread: 3, color: 'var(--color-focus)' },
});

/**
 * AG Grid's own words replaced where a person meets them: a search or filter that leaves no
 * row (and a list the page fills from a search) says the spec's empty-search text (spec 02 "Empty states"), not "No Rows To Show".
 */
// Without it AG Grid ignores `localeText` and says its English defaults. Registered here,
// once, because every grid imports this file.
ModuleRegistry.registerModules([LocaleModule]);

export const depotGridLocaleText = {
  noMatchingRows: 'No Matching Results Found',
  noRowsToShow: 'No Matching Results Found',
};
