import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

/** The trigger of the component library's Select labelled `label` (its name is "<value> <label>"). */
export function selectTrigger(label: string): HTMLElement {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const name = new RegExp(`(^|\\s)${escaped}$`);
  // a listbox trigger only: a button named "Add Property" is not the Select "Property"
  const triggers = screen
    .getAllByRole('button', { name })
    .filter((button) => button.getAttribute('aria-haspopup') === 'listbox');
  if (triggers.length !== 1)
    throw new Error(`${triggers.length} Selects labelled "${label}", expected one`);
  return triggers[0];
}

/** Opens the Select labelled `label` and clicks the option named `option`, as a person does. */
export async function chooseOption(label: string, option: string): Promise<void> {
  await userEvent.click(selectTrigger(label));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

/** The option names the Select labelled `label` offers, read by opening it. */
export async function optionNames(label: string): Promise<string[]> {
  await userEvent.click(selectTrigger(label));
  const names = (await screen.findAllByRole('option')).map((o) => o.textContent ?? '');
  await userEvent.keyboard('{Escape}');
  return names;
}
