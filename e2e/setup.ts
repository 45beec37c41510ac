import { afterEach } from 'vitest';
import { assertNoSeriousViolations } from './accessibility.ts';

// Every e2e test ends by waiting for the audits of the pages it visited (accessibility.ts).
afterEach(assertNoSeriousViolations);
