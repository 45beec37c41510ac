import { BadRequest } from '../../errors.ts';
import { isValidCron } from '../../jobs/cron.ts';
import type { EntityHooks } from '../entities/hooks.ts';
import { AqlSyntaxError } from '../search/aql-lexer.ts';
import { parseAql } from '../search/aql-parser.ts';
import { RETENTION_MESSAGES as M } from './messages.ts';
import { policyAql, type RetentionPolicy } from './policy-aql.ts';

/**
 * A save checks the query's syntax only; the instance's AQL limits (DEPOT_AQL_MAX_*) apply
 * when it runs, so that raising them needs no re-save.
 */
const SYNTAX_ONLY = { maxBytes: 65536, maxCriteria: 10_000 };

/**
 * Retention policies on the schema engine (docs/retention.md): the schedule must be a cron,
 * and what the policy chooses must be a query Depot can run: a form with a criterion, or AQL
 * that parses. A refusal names the field.
 */
export function retentionPolicyHooks(): EntityHooks {
  return {
    beforeWrite({ document }) {
      const cron = String(document.cronExp ?? '').trim();
      if (cron === '') throw new BadRequest(M.cronEmpty, 'cronExp');
      if (!isValidCron(cron)) throw new BadRequest(M.cronInvalid, 'cronExp');
      const policy = document as unknown as RetentionPolicy;
      try {
        parseAql(policyAql(policy), SYNTAX_ONLY);
      } catch (error) {
        if (error instanceof AqlSyntaxError) throw new BadRequest(error.message, 'aqlQuery');
        throw error;
      }
      return { ...document, cronExp: cron };
    },
  };
}
