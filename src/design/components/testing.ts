import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

/** The trigger of the component library's Select labelled `label` (its name is "<value> <label>"). */
export function selectTrigger(label: string): HTMLElement {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return screen.getByRole('button', { name: new RegExp(`(^|\\s)${escaped}$`) });
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
