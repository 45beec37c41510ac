import { useEffect } from 'react';
import { useLocation, useMatches } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { $descriptors, $screens } from '../../engine/descriptors/model';
import { $footer } from '../session/model';
import { LABELS } from '../messages';
import { composeDocumentTitle, deepestTitle } from './documentTitle';

/** Keeps document.title = deepest matched route title + ' - ' + server name (spec 01 §2). */
export function DocumentTitle() {
  const matches = useMatches();
  const { pathname } = useLocation();
  const [footer, screens, descriptors] = useUnit([$footer, $screens, $descriptors]);
  const title = deepestTitle(matches, { pathname, screens, descriptors });
  useEffect(() => {
    document.title = composeDocumentTitle(title, footer?.serverName, LABELS.productName);
  }, [title, footer?.serverName]);
  return null;
}
