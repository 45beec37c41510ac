import { describe, expect, it } from 'vitest';
import type { ColDef, ValueFormatterParams, ValueGetterParams } from 'ag-grid-community';
import usersDescriptor from '../../../schemas/screens/users.screen.json';
import groupsDescriptor from '../../../schemas/screens/groups.screen.json';
import type { ScreenDescriptor } from '../../api/descriptor';
import type { Row } from '../../api/resource';
import { columnDefs } from './columnDefs';
import { LinkCell, WebLinkCell } from './LinkCell';
import { createListCellRegistry, FeatureCell } from './listCells';
import { editPathOf } from '../screenPaths';

const users = usersDescriptor as unknown as ScreenDescriptor;
const groups = groupsDescriptor as unknown as ScreenDescriptor;

const byField = (defs: ColDef<Row>[], field: string) => {
  const def = defs.find((d) => d.field === field);
  if (!def) throw new Error(`no column ${field}`);
  return def;
};
const format = (def: ColDef<Row>, value: unknown) =>
  (def.valueFormatter as (p: Partial<ValueFormatterParams<Row>>) => string)({ value });
const filterText = (def: ColDef<Row>, data: Row) =>
  (def.filterValueGetter as (p: { data: Row }) => string)({ data });

describe('columnDefs', () => {
  const defs = columnDefs(users.list, (row) => editPathOf(users, row));

  it('has one column per descriptor column, in order, with its header', () => {
    expect(defs.map((d) => [d.field, d.headerName])).toEqual([
      ['name', 'User Name'],
      ['email', 'Email'],
      ['realm', 'Realm'],
      ['admin', 'Admin'],
      ['groups', 'Groups'],
      ['lastLoggedIn', 'Last Login'],
      ['locked', 'Locked'],
      ['mfaEnrolled', 'MFA'],
    ]);
  });

  it('makes every column sortable with a text filter', () => {
    for (const def of defs) {
      expect(def.sortable).toBe(true);
      expect(def.filter).toBe('agTextColumnFilter');
    }
  });

  it('uses the descriptor width, else lets the column grow', () => {
    expect(byField(defs, 'name').width).toBe(220);
    expect(byField(defs, 'email').flex).toBe(1);
    expect(byField(defs, 'email').width).toBeUndefined();
  });

  it('renders the link column as a link to the URL-encoded edit route', () => {
    const name = byField(defs, 'name');
    expect(name.cellRenderer).toBe(LinkCell);
    expect(name.cellRendererParams.to({ name: 'jo doe/1' })).toBe(
      '/admin/management/users/jo%20doe%2F1/edit',
    );
    expect(byField(defs, 'email').cellRenderer).toBeUndefined();
  });

  it('joins arrays and words booleans', () => {
    expect(format(byField(defs, 'groups'), ['readers', 'writers'])).toBe('readers, writers');
    expect(format(byField(defs, 'admin'), true)).toBe('Yes');
    expect(format(byField(defs, 'admin'), false)).toBe('No');
    expect(format(byField(defs, 'email'), null)).toBe('');
  });

  it('formats dates, and shows nothing for a user who never logged in', () => {
    const lastLogin = byField(defs, 'lastLoggedIn');
    const iso = '2024-03-05T07:09:00';
    expect(format(lastLogin, iso)).toBe('2024-03-05 07:09');
    expect(format(lastLogin, null)).toBe('');
  });

  it('counts arrays for count columns, so they sort as numbers', () => {
    const users = byField(columnDefs(groups.list), 'usersInGroup');
    const getter = users.valueGetter as (p: Partial<ValueGetterParams<Row>>) => number;
    expect(getter({ data: { usersInGroup: ['a', 'b', 'c'] } })).toBe(3);
    expect(getter({ data: {} })).toBe(0);
  });

  it('filters and searches on the text the user sees', () => {
    expect(filterText(byField(defs, 'groups'), { groups: ['readers', 'writers'] })).toBe(
      'readers, writers',
    );
    const quick = byField(defs, 'admin').getQuickFilterText as (p: { data: Row }) => string;
    expect(quick({ data: { admin: true } })).toBe('Yes');
  });
});

describe('a column a feature cell shows', () => {
  const StateCell = () => null;
  const cells = createListCellRegistry({ 'backup-state': StateCell });
  const descriptor = {
    ...users,
    list: {
      ...users.list,
      columns: [{ field: 'runState', header: 'Last Run', cell: 'backup-state' }],
    },
  } as ScreenDescriptor;

  it('renders the registered cell, and neither sorts nor filters what the rows do not hold', () => {
    const [def] = columnDefs(descriptor.list, undefined, cells);
    expect(def.cellRenderer).toBe(FeatureCell);
    expect(def.cellRendererParams).toEqual({ cell: StateCell });
    expect([def.sortable, def.filter]).toEqual([false, false]);
  });

  it('fails loudly when the console has no such cell', () => {
    expect(() => columnDefs(descriptor.list, undefined, createListCellRegistry({}))).toThrow(
      'No list cell named "backup-state" is registered',
    );
  });
});

describe("columnDefs of a bespoke screen's list", () => {
  const defs = columnDefs({
    key: 'id',
    columns: [
      {
        field: 'buildNumber',
        header: 'Build Number',
        linkTo: '/builds/{buildName}/{buildNumber}/{time}',
      },
      { field: 'time', header: 'Time', format: 'date' },
      { field: 'ciUrl', header: 'CI Server', format: 'url' },
    ],
  });

  it('links a linkTo column to its page, each value URL-encoded, and to none when one is missing', () => {
    const to = byField(defs, 'buildNumber').cellRendererParams.to;
    expect(to({ buildName: 'team/app', buildNumber: '7', time: 1767268800000 })).toBe(
      '/builds/team%2Fapp/7/1767268800000',
    );
    expect(to({ buildName: 'team/app', buildNumber: '7' })).toBeUndefined();
  });

  it('formats a time given in milliseconds', () => {
    const millis = new Date(2026, 0, 31, 12, 5).getTime();
    expect(format(byField(defs, 'time'), millis)).toBe('2026-01-31 12:05');
  });

  it('draws a url column as a web link', () => {
    expect(byField(defs, 'ciUrl').cellRenderer).toBe(WebLinkCell);
  });
});
