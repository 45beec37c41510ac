import { Link } from 'react-router-dom';
import { LABELS } from '../messages';
import { UserMenu } from './UserMenu';
import { ProjectSelector } from './ProjectSelector';
import { SetMeUpButton } from '../../custom/set-me-up/SetMeUpButton';
import { ToolbarSearch } from '../../custom/search/ToolbarSearch';

export function Toolbar() {
  return (
    <header className="toolbar">
      <Link to="/" className="toolbar-brand">
        {LABELS.productName}
      </Link>
      <div className="toolbar-end">
        <ToolbarSearch />
        <ProjectSelector />
        <SetMeUpButton />
        <UserMenu />
      </div>
    </header>
  );
}
