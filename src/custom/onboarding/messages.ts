import { PERSONALIZATION_MESSAGES } from '../../api/onboarding';

/** The personalisation wizard's texts (spec 03 "Onboarding": init, purpose, details, features). */
export const ONBOARDING_LABELS = {
  title: 'Welcome to Depot',
  intro:
    'Tell us a little about how you will use Depot, so the console can suggest where to start. It takes a minute; you can skip it.',
  steps: ['Welcome', 'Purpose', 'Details', 'Features'] as const,
  stepOf: (index: number, count: number) => `Step ${index + 1} of ${count}`,
  start: 'Get Started',
  purpose: 'What will you use Depot for?',
  purposes: { Commercial: 'Commercial', Personal: 'Personal' },
  companyName: 'Company name',
  ossProjectName: 'Open source project name (optional)',
  role: 'Your role',
  otherRole: 'Which role?',
  features: 'Which features are you interested in?',
  skip: 'Skip',
  next: 'Next',
  back: 'Back',
  finish: 'Finish',
  saving: 'Saving…',
  required: PERSONALIZATION_MESSAGES.required,
  noFeature: PERSONALIZATION_MESSAGES.noFeature,
  saveFailed: 'Failed to save your answers',
} as const;
