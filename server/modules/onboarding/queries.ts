import type { Database } from '../../db/database.ts';

/** The `settings` row that holds the onboarding state. */
const SETTINGS_KEY = 'onboarding';

export interface StoredOnboarding {
  quickSetup?: 'done' | 'skipped';
  by?: string;
  at?: string;
}

export async function readOnboarding(db: Database): Promise<StoredOnboarding> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', SETTINGS_KEY)
    .executeTakeFirst();
  return (row?.value as StoredOnboarding | undefined) ?? {};
}

export async function writeOnboarding(db: Database, state: StoredOnboarding): Promise<void> {
  const value = JSON.stringify(state);
  await db
    .insertInto('settings')
    .values({ key: SETTINGS_KEY, value })
    .onConflict((c) => c.column('key').doUpdateSet({ value }))
    .execute();
}

/**
 * Records a skip unless the quick setup was done or skipped already: the first answer
 * stands, in one statement, so two admins skipping at once record one of them.
 */
export async function recordSkip(db: Database, state: StoredOnboarding): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key: SETTINGS_KEY, value: JSON.stringify(state) })
    .onConflict((c) => c.column('key').doNothing())
    .execute();
}

/** One `settings` row per admin: the wizard is answered or skipped by each admin once. */
const personalizationKey = (admin: string) => `onboarding.personalization.${admin}`;

export interface StoredPersonalization {
  state: 'done' | 'skipped';
  answers?: object;
  at: string;
}

export async function readPersonalization(
  db: Database,
  admin: string,
): Promise<StoredPersonalization | undefined> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', personalizationKey(admin))
    .executeTakeFirst();
  return row?.value as StoredPersonalization | undefined;
}

/** The first answer stands: a second submit or skip (another tab) changes nothing. */
export async function recordPersonalization(
  db: Database,
  admin: string,
  stored: StoredPersonalization,
): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key: personalizationKey(admin), value: JSON.stringify(stored) })
    .onConflict((c) => c.column('key').doNothing())
    .execute();
}
