import { Link } from 'react-router-dom';
import type { Row } from '../../api/resource';
import { webAddress } from './cellFormat';

export interface LinkCellParams {
  value?: unknown;
  data?: Row;
  valueFormatted?: string | null;
  /** The console page the cell opens, or none (the row lacks a value the path needs). */
  to: (row: Row) => string | undefined;
}

/** A cell that opens a console page: the key column's edit page, or a column's `linkTo`. */
export function LinkCell({ value, data, valueFormatted, to }: LinkCellParams) {
  if (!data) return null;
  const text = valueFormatted ?? String(value ?? '');
  const path = to(data);
  return path ? <Link to={path}>{text}</Link> : <>{text}</>;
}

/** A `url` cell: the address as a link that opens in a new tab, when it is a web address. */
export function WebLinkCell({ value }: { value?: unknown }) {
  const address = webAddress(value);
  if (!address) return null;
  return (
    <a href={address} target="_blank" rel="noreferrer noopener">
      {address}
    </a>
  );
}
