import { Link } from 'react-router-dom';
import { LABELS } from '../messages';
import { UserMenu } from './UserMenu';
import { ProjectSelector } from './ProjectSelector';

export function Toolbar() {
  return (
    <header className="toolbar">
      <Link to="/" className="toolbar-brand">
        {LABELS.productName}
      </Link>
      <div className="toolbar-end">
        <ProjectSelector />
        <UserMenu />
      </div>
    </header>
  );
}
