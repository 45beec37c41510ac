import { afterEach, describe, expect, it } from 'vitest';
import { useState } from 'react';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TabBar } from './TabBar';

afterEach(cleanup);

const NAMES = ['maven', 'gradle', 'ivy'] as const;
type Tool = (typeof NAMES)[number];

function Harness() {
  const [tool, setTool] = useState<Tool>('maven');
  return (
    <TabBar
      label="Build Tool"
      names={NAMES}
      selected={tool}
      labelOf={(name) => name.toUpperCase()}
      onSelect={setTool}
    >
      <p>snippet for {tool}</p>
    </TabBar>
  );
}

describe('the design tab bar (React Aria Tabs), used by every tab row of the console', () => {
  it('is a named tab list whose panel is labelled by the selected tab', () => {
    render(<Harness />);
    const list = screen.getByRole('tablist', { name: 'Build Tool' });
    expect(list).toBeTruthy();
    const selected = screen.getByRole('tab', { selected: true });
    expect(selected.textContent).toBe('MAVEN');
    expect(screen.getByRole('tabpanel', { name: 'MAVEN' }).textContent).toBe('snippet for maven');
  });

  it('moves and selects with the arrow keys, Home and End, and with a click', async () => {
    render(<Harness />);
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'MAVEN' }));
    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByRole('tabpanel').textContent).toBe('snippet for gradle');
    await userEvent.keyboard('{End}');
    expect(screen.getByRole('tab', { selected: true }).textContent).toBe('IVY');
    await userEvent.keyboard('{Home}');
    expect(screen.getByRole('tabpanel').textContent).toBe('snippet for maven');
    await userEvent.click(screen.getByRole('tab', { name: 'IVY' }));
    expect(screen.getByRole('tabpanel', { name: 'IVY' }).textContent).toBe('snippet for ivy');
  });
});
