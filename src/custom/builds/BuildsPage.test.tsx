import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import BuildsPage from './BuildsPage';

function Landed() {
  const location = useLocation();
  return <p>{`landed on ${location.pathname}${location.search}`}</p>;
}

/** `builds-new` (spec 01 §2's route name) lands on the same page under /builds. */
describe('the builds-new route', () => {
  it.each([
    ['/builds-new', '/builds'],
    ['/builds-new?name=app', '/builds?name=app'],
    ['/builds-new/team%2Fapp/7/1767268800000/diff', '/builds/team%2Fapp/7/1767268800000/diff'],
  ])('%s goes to %s', async (from, to) => {
    render(
      <MemoryRouter initialEntries={[from]}>
        <Routes>
          <Route path="/builds-new/*" element={<BuildsPage />} />
          <Route path="/builds/*" element={<Landed />} />
        </Routes>
      </MemoryRouter>,
    );
    expect(await screen.findByText(`landed on ${to}`)).toBeTruthy();
  });
});
