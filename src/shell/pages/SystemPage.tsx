import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { LABELS } from '../messages';

/** The frame of the pages outside the shell: 404, 406, 500 and the route error page. */
export function SystemPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="full-page">
      <div className="card" style={{ maxWidth: '36rem' }}>
        <h1>{title}</h1>
        {children}
        <p>
          <Link to="/">{LABELS.home}</Link>
        </p>
      </div>
    </main>
  );
}
