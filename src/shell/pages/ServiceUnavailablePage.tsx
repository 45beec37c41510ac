import { Link } from 'react-router-dom';
import { HOME_PAGE_PATH, LABELS, SERVICE_UNAVAILABLE_TEXTS as T } from '../messages';
import type { UnavailableFeature } from '../unavailableServices';

/**
 * A page of a companion service Depot does not run (./unavailableServices.ts): it names the
 * feature and the missing service, inside the shell, so the menus stay at hand.
 */
export function ServiceUnavailablePage({ feature }: { feature: UnavailableFeature }) {
  return (
    <section className="service-unavailable" aria-labelledby="service-unavailable-title">
      <header className="page-header">
        <h1 id="service-unavailable-title">{T.title(feature.feature)}</h1>
      </header>
      <div className="card">
        <p>{T.text(feature.feature, feature.service)}</p>
        <p>
          <Link to={HOME_PAGE_PATH}>{LABELS.home}</Link>
        </p>
      </div>
    </section>
  );
}
