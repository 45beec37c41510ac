import { Link } from 'react-router-dom';
import { LABELS } from '../messages';
import { UserMenu } from './UserMenu';

export function Toolbar() {
  return (
    <header className="toolbar">
      <Link to="/" className="toolbar-brand">
        {LABELS.productName}
      </Link>
      <UserMenu />
    </header>
  );
}
