import type { BinariesSummary } from './api';
import { RETENTION_LABELS as L } from './messages';

/** "12.34 MB" as its number and its unit (spec 02 §3: size strings are split). */
function split(size: string | undefined, unit: string): [string, string] {
  const [number, given] = (size ?? '').trim().split(/\s+/);
  return number ? [number, given ?? unit] : [L.cards.placeholder, unit];
}

function Card({ title, count, size }: { title: string; count: string; size: [string, string] }) {
  return (
    <section className="card retention-card" aria-label={title}>
      <h2>{title}</h2>
      <p className="retention-card-count">{count}</p>
      <p className="retention-card-size">
        {size[0]} <span>{size[1]}</span>
      </p>
    </section>
  );
}

/** The cold store's statistics cards (`binariesSummary`): '-' until the figures come. */
export function SummaryCards({ summary }: { summary: BinariesSummary | undefined }) {
  const count = (value: number | undefined) =>
    value === undefined ? L.cards.placeholder : String(value);
  const optimization = (summary?.optimization ?? '').replace('%', '').trim();
  return (
    <div className="retention-cards">
      <Card
        title={L.cards.binaries(summary?.binariesCount ?? 0)}
        count={count(summary?.binariesCount)}
        size={split(summary?.binariesSize, 'MB')}
      />
      <Card
        title={L.cards.artifacts(summary?.artifactsCount ?? 0)}
        count={count(summary?.artifactsCount)}
        size={split(summary?.artifactsSize, 'MB')}
      />
      <Card
        title={L.cards.items(summary?.itemsCount ?? 0)}
        count={count(summary?.itemsCount)}
        size={[optimization || L.cards.placeholder, `% ${L.cards.optimization}`]}
      />
    </div>
  );
}
