import { describe, expect, it } from 'vitest';
import { allSettled, fork } from 'effector';
import type { ScreenDescriptor, ScreenSummary } from '../../api/descriptor';
import { groupsDescriptor, usersDescriptor } from '../testing';
import { $descriptors, $screens, reloadSchemasFx, schemasChanged } from './model';

const summary = ({ id, title, route, permission }: ScreenDescriptor): ScreenSummary => ({
  id,
  title,
  route,
  permission,
});

describe('schemas changed on disk (development)', () => {
  it('reads the list and the descriptors already open again, in place', async () => {
    const renamed = { ...groupsDescriptor, title: 'Teams' };
    const asked: string[][] = [];
    const scope = fork({
      values: [
        [$screens, [summary(usersDescriptor), summary(groupsDescriptor)]],
        [$descriptors, { groups: groupsDescriptor }],
      ],
      handlers: [
        [
          reloadSchemasFx,
          async (ids: string[]) => {
            asked.push(ids);
            return { screens: [summary(renamed)], descriptors: { groups: renamed } };
          },
        ],
      ],
    });
    await allSettled(schemasChanged, { scope });
    expect(asked).toEqual([['groups']]);
    expect(scope.getState($screens).map((s) => s.title)).toEqual(['Teams']);
    expect(scope.getState($descriptors).groups.title).toBe('Teams');
  });
});
