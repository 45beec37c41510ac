import { Link } from 'react-router-dom';
import { LABELS } from '../messages';
import { UserMenu } from './UserMenu';
import { ProjectSelector } from './ProjectSelector';
import { QuickActionsMenu } from './QuickActionsMenu';
import { useToolbarItems } from './toolbarItems';

/**
 * The product link, then the features' items (search, Set Me Up), the quick actions, the
 * project, the user.
 */
export function Toolbar() {
  const items = useToolbarItems();
  return (
    <header className="toolbar">
      <Link to="/" className="toolbar-brand">
        {LABELS.productName}
      </Link>
      <div className="toolbar-end">
        {items.map((Item, index) => (
          <Item key={index} />
        ))}
        <QuickActionsMenu />
        <ProjectSelector />
        <UserMenu />
      </div>
    </header>
  );
}
