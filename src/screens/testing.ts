import type { CurrentUser } from '../api/auth';
import type { ScreenSummary } from '../api/descriptor';

const files = import.meta.glob<ScreenSummary>('../../schemas/screens/*.screen.json', {
  eager: true,
  import: 'default',
});

/** Every descriptor the repository ships (schemas/screens), as the files hold them. */
export const shippedScreens: ScreenSummary[] = Object.values(files);

/** The screens the server lists to this user: admins all, others all but admin screens. */
export function shippedScreensFor(user: CurrentUser): ScreenSummary[] {
  return shippedScreens.filter((screen) => user.admin || screen.permission !== 'admin');
}
