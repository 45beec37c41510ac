import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PropertySet } from '../../../api/treeBrowser';
import { chooseOption, optionNames, selectTrigger } from '../../../design/components/testing';
import { TAB_LABELS } from '../messages';
import { PropertySetForm } from './PropertySetForm';

afterEach(cleanup);

const T = TAB_LABELS.properties;

const value = (text: string, defaultValue = false) => ({ value: text, defaultValue });
const SETS: PropertySet[] = [
  {
    name: 'release',
    properties: [
      {
        name: 'stage',
        propertyType: 'SINGLE_SELECT',
        predefinedValues: [value('dev', true), value('prod')],
      },
      {
        name: 'targets',
        propertyType: 'MULTI_SELECT',
        predefinedValues: [value('linux', true), value('mac'), value('windows')],
      },
      { name: 'notes', propertyType: 'ANY_VALUE', predefinedValues: [] },
    ],
  },
] as PropertySet[];

function renderForm() {
  const onSave = vi.fn();
  render(<PropertySetForm sets={SETS} onSave={onSave} />);
  return { onSave, add: () => screen.getByRole('button', { name: T.add }) };
}

describe('adding a property from a property set (the design controls, no native select)', () => {
  it('picks the set property and one of its values with the design Select', async () => {
    const { onSave, add } = renderForm();
    // React Aria's Select keeps a hidden native select for forms; none is shown
    const shown = [...document.querySelectorAll('select')].filter(
      (select) => !select.closest('[aria-hidden="true"]'),
    );
    expect(shown).toEqual([]);
    expect(await optionNames(T.setProperty)).toEqual([
      'release.stage',
      'release.targets',
      'release.notes',
    ]);
    expect(selectTrigger(T.value).textContent).toContain('dev'); // the default comes chosen
    await chooseOption(T.value, 'prod');
    await userEvent.click(add());
    expect(onSave).toHaveBeenCalledWith({ name: 'release.stage', value: ['prod'] });
  }, 30000);

  it('chooses several values of a multi-select property as removable tags', async () => {
    const { onSave, add } = renderForm();
    await chooseOption(T.setProperty, 'release.targets');
    const tags = () =>
      within(screen.getByRole('grid', { name: T.value }))
        .getAllByRole('row')
        .map((row) => row.getAttribute('aria-label') ?? row.textContent?.replace('×', ''));
    expect(tags()).toEqual(['linux']); // the default comes chosen
    await userEvent.type(screen.getByRole('combobox', { name: T.value }), 'win');
    await userEvent.click(await screen.findByRole('option', { name: 'windows' }));
    expect(tags()).toEqual(['linux', 'windows']);
    await userEvent.click(screen.getByRole('button', { name: /^Remove linux/ }));
    expect(tags()).toEqual(['windows']);
    await userEvent.click(add());
    expect(onSave).toHaveBeenCalledWith({ name: 'release.targets', value: ['windows'] });
  }, 30000);

  it('takes free values one per line for a property of any value', async () => {
    const { onSave, add } = renderForm();
    await chooseOption(T.setProperty, 'release.notes');
    await userEvent.type(screen.getByRole('textbox', { name: T.values }), 'first{enter}second');
    await userEvent.click(add());
    expect(onSave).toHaveBeenCalledWith({ name: 'release.notes', value: ['first', 'second'] });
  }, 30000);
});
