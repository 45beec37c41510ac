import userSchema from '../../schemas/entities/user.schema.json';
import usersScreen from '../../schemas/screens/users.screen.json';
import groupSchema from '../../schemas/entities/group.schema.json';
import groupsScreen from '../../schemas/screens/groups.screen.json';
import type { ScreenDescriptor } from '../api/descriptor';

/** The real descriptors with their entity schema bundled in, as the server serves them. */
export const usersDescriptor = {
  ...usersScreen,
  entitySchema: userSchema,
} as unknown as ScreenDescriptor;
export const groupsDescriptor = {
  ...groupsScreen,
  entitySchema: groupSchema,
} as unknown as ScreenDescriptor;
