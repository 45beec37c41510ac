import { BadRequest } from '../../errors.ts';

/**
 * The personalisation wizard's answers (spec 03 "Onboarding": purpose, details, desired
 * features), kept per admin. The choices are the spec's, verbatim.
 */
export const PURPOSES = ['Commercial', 'Personal'] as const;
export const ROLES = [
  'DevOps Engineer',
  'Software Developer',
  'DevSecOps Engineer',
  'Other',
] as const;
export const DESIRED_FEATURES = [
  'Binary management',
  'Team Administration',
  'Single Sign On',
  'Vulnerabilities Scanning',
  'License Compliance Checks',
  'CI/CD',
  'Container Registry',
  'SBOM',
] as const;

export interface PersonalizationAnswers {
  purpose: (typeof PURPOSES)[number];
  companyName?: string;
  ossProjectName?: string;
  role: (typeof ROLES)[number];
  otherRole?: string;
  desiredFeatures: Array<(typeof DESIRED_FEATURES)[number]>;
}

export type PersonalizationState = 'pending' | 'done' | 'skipped';

export const PERSONALIZATION_MESSAGES = {
  required: 'You must fill in this field',
  noFeature: 'Select at least one feature',
} as const;

const text = { type: 'string', maxLength: 128 } as const;

/**
 * `PUT /ui/api/v1/ui/onboarding`: `{ "skipped": true }`, or the answers. One flat object (not
 * a oneOf): Fastify's Ajv removes unknown properties, which a oneOf of closed objects defeats.
 */
export const personalizationBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    skipped: { type: 'boolean' },
    purpose: { type: 'string', enum: PURPOSES },
    companyName: text,
    ossProjectName: text,
    role: { type: 'string', enum: ROLES },
    otherRole: text,
    desiredFeatures: {
      type: 'array',
      maxItems: DESIRED_FEATURES.length,
      uniqueItems: true,
      items: { type: 'string', enum: DESIRED_FEATURES },
    },
  },
} as const;

export type PersonalizationBody = Partial<PersonalizationAnswers> & { skipped?: boolean };

/**
 * The rules a JSON Schema states poorly, as the wizard's steps check them: a role named when
 * it is Other, a company when the purpose is Commercial, at least one feature.
 */
export function checkAnswers(body: PersonalizationBody): PersonalizationAnswers {
  if (!body.purpose) throw new BadRequest(PERSONALIZATION_MESSAGES.required, 'purpose');
  if (!body.role) throw new BadRequest(PERSONALIZATION_MESSAGES.required, 'role');
  const answers = {
    ...body,
    desiredFeatures: body.desiredFeatures ?? [],
  } as PersonalizationAnswers;
  const trimmed = (value?: string) => value?.trim() || undefined;
  const companyName = trimmed(answers.companyName);
  const otherRole = trimmed(answers.otherRole);
  if (answers.purpose === 'Commercial' && !companyName)
    throw new BadRequest(PERSONALIZATION_MESSAGES.required, 'companyName');
  if (answers.role === 'Other' && !otherRole)
    throw new BadRequest(PERSONALIZATION_MESSAGES.required, 'otherRole');
  if (answers.desiredFeatures.length === 0)
    throw new BadRequest(PERSONALIZATION_MESSAGES.noFeature, 'desiredFeatures');
  return {
    purpose: answers.purpose,
    ...(answers.purpose === 'Commercial' ? { companyName } : {}),
    ...(answers.purpose === 'Personal' && trimmed(answers.ossProjectName)
      ? { ossProjectName: trimmed(answers.ossProjectName) }
      : {}),
    role: answers.role,
    ...(answers.role === 'Other' ? { otherRole } : {}),
    desiredFeatures: answers.desiredFeatures,
  };
}
