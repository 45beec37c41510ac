import { Link } from 'react-router-dom';
import type { Row } from '../../api/resource';

export interface LinkCellParams {
  value?: unknown;
  data?: Row;
  valueFormatted?: string | null;
  editPath: (row: Row) => string;
}

/** The key column: the entity's name as a link to its edit page. */
export function LinkCell({ value, data, valueFormatted, editPath }: LinkCellParams) {
  if (!data) return null;
  return <Link to={editPath(data)}>{valueFormatted ?? String(value ?? '')}</Link>;
}
