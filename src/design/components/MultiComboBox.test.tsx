import { describe, expect, it } from 'vitest';
import { useState } from 'react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MultiComboBox } from './MultiComboBox';

function Harness() {
  const [values, setValues] = useState<string[]>([]);
  return (
    <>
      <MultiComboBox
        label="Repositories"
        choices={['docs-local', 'libs-local', 'libs-remote']}
        values={values}
        onChange={setValues}
        emptyText="No repository matches"
      />
      <p data-testid="chosen">{values.join(',')}</p>
    </>
  );
}

describe('the multi-select combobox', () => {
  it('filters as one types, adds the picked value as a tag, and removes a tag', async () => {
    render(<Harness />);
    const input = screen.getByRole('combobox', { name: 'Repositories' });
    await userEvent.type(input, 'libs');
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['libs-local', 'libs-remote']);
    await userEvent.keyboard('{ArrowDown}{Enter}');
    expect(screen.getByTestId('chosen').textContent).toBe('libs-local');
    const fresh = screen.getByRole('combobox', { name: 'Repositories' });
    expect(fresh).toHaveProperty('value', '');
    expect(document.activeElement).toBe(fresh);
    await userEvent.type(fresh, 'docs');
    await userEvent.click(await screen.findByRole('option', { name: 'docs-local' }));
    expect(screen.getByTestId('chosen').textContent).toBe('libs-local,docs-local');
    const tags = screen.getByRole('grid', { name: 'Repositories' });
    await userEvent.click(within(tags).getByRole('button', { name: /^Remove libs-local/ }));
    expect(screen.getByTestId('chosen').textContent).toBe('docs-local');
  });
});
