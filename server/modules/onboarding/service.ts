import type { Catalogue } from '../../catalogue/catalogue.ts';
import type { Database } from '../../db/database.ts';
import { BadRequest } from '../../errors.ts';
import { FORMATS } from '../../formats/registry.ts';
import type { RepositoriesService, RepositoryConfig } from '../repositories/service.ts';
import { ONBOARDING_MESSAGES as M } from './messages.ts';
import {
  checkAnswers,
  type PersonalizationBody,
  type PersonalizationState,
} from './personalization.ts';
import {
  readOnboarding,
  readPersonalization,
  recordPersonalization,
  recordSkip,
  writeOnboarding,
} from './queries.ts';
import { planQuickSetup, type QuickSetupChoice } from './quick-setup-plan.ts';

export type QuickSetupState = 'pending' | 'done' | 'skipped';

/** `GET /ui/api/v1/system/onboarding`. */
export interface OnboardingView {
  quickSetup: QuickSetupState;
  /** Whether an admin's sign-in opens the quick setup now. */
  offerQuickSetup: boolean;
  by?: string;
  at?: string;
}

/** One package type the quick setup offers (`GET /ui/api/v1/ui/onboarding/reposStates`). */
export interface QuickSetupType {
  packageType: string;
  label: string;
  /** ALREADY_SET when repositories of the type exist: the admin may still add more. */
  state: 'UNSET' | 'ALREADY_SET';
  /** The upstream its remote repository starts from (configured; empty when none is). */
  upstreamUrl: string;
}

/** `GET /ui/api/v1/ui/onboarding`: the calling admin's personalisation wizard. */
export interface PersonalizationView {
  personalization: PersonalizationState;
  /** Whether this admin's landing is the wizard now. */
  offerPersonalization: boolean;
  answers?: object;
}

export interface QuickSetupOptions {
  offerOnFirstLogin: boolean;
  upstreams: Record<string, string>;
}

/**
 * The package types a native format serves (server/formats/registry.ts) that can be local,
 * remote and virtual, in the catalogue's order: what the quick setup can set up in full.
 */
function offeredTypes(catalogue: Catalogue) {
  const served = new Set(FORMATS.flatMap((format) => format.packageTypes));
  return catalogue.packageTypes.filter(
    (type) =>
      served.has(type.value) &&
      (['local', 'remote', 'virtual'] as const).every((kind) => type.repoTypes.includes(kind)),
  );
}

export function createOnboardingService(
  db: Database,
  catalogue: Catalogue,
  repositories: RepositoriesService,
  options: QuickSetupOptions,
) {
  async function view(): Promise<OnboardingView> {
    const stored = await readOnboarding(db);
    const quickSetup = stored.quickSetup ?? 'pending';
    return {
      quickSetup,
      offerQuickSetup: quickSetup === 'pending' && options.offerOnFirstLogin,
      ...(stored.by ? { by: stored.by, at: stored.at } : {}),
    };
  }

  function checkChoices(prefix: string, choices: QuickSetupChoice[]) {
    if (!prefix.trim()) throw new BadRequest(M.prefixRequired, 'prefix');
    if (choices.length === 0) throw new BadRequest(M.noPackageTypes, 'packageTypes');
    const offered = new Set(offeredTypes(catalogue).map((type) => type.value));
    const seen = new Set<string>();
    for (const { packageType } of choices) {
      if (!offered.has(packageType))
        throw new BadRequest(M.notOffered(packageType), 'packageTypes');
      if (seen.has(packageType)) throw new BadRequest(M.twice(packageType), 'packageTypes');
      seen.add(packageType);
    }
  }

  return {
    view,

    async types(): Promise<QuickSetupType[]> {
      const existing = new Set((await repositories.list()).map((repo) => repo.packageType));
      return offeredTypes(catalogue).map((type) => ({
        packageType: type.value,
        label: type.text,
        state: existing.has(type.value) ? 'ALREADY_SET' : 'UNSET',
        upstreamUrl: options.upstreams[type.value] ?? '',
      }));
    },

    /**
     * Creates the repositories of every type chosen, all or none (the repositories service's
     * rules, each `check`ed first against the entity schema as the form's are), and records
     * the quick setup as done in the same transaction.
     */
    async createDefaultRepos(
      prefix: string,
      choices: QuickSetupChoice[],
      by: string,
      check: (config: RepositoryConfig) => void,
    ): Promise<RepositoryConfig[]> {
      const normalized = choices.map((c) => ({ ...c, packageType: c.packageType.toLowerCase() }));
      checkChoices(prefix, normalized);
      const configs = planQuickSetup(prefix.trim(), normalized) as RepositoryConfig[];
      configs.forEach(check);
      return repositories.createAll(configs, (tx) =>
        writeOnboarding(tx, { quickSetup: 'done', by, at: new Date().toISOString() }),
      );
    },

    async personalization(admin: string): Promise<PersonalizationView> {
      const stored = await readPersonalization(db, admin);
      const personalization = stored?.state ?? 'pending';
      return {
        personalization,
        offerPersonalization: personalization === 'pending' && options.offerOnFirstLogin,
        ...(stored?.answers ? { answers: stored.answers } : {}),
      };
    },

    /** Stores the admin's answers or skip; the first one stands. */
    async personalize(admin: string, body: PersonalizationBody): Promise<PersonalizationView> {
      const at = new Date().toISOString();
      await recordPersonalization(
        db,
        admin,
        body.skipped === true
          ? { state: 'skipped', at }
          : { state: 'done', answers: checkAnswers(body), at },
      );
      return this.personalization(admin);
    },

    /** Skipping after it was done or skipped changes nothing. */
    async skip(by: string): Promise<OnboardingView> {
      await recordSkip(db, { quickSetup: 'skipped', by, at: new Date().toISOString() });
      return view();
    },
  };
}

export type OnboardingService = ReturnType<typeof createOnboardingService>;
