import { isValidCron } from '../../jobs/cron.ts';
import { BadRequest, Conflict } from '../../errors.ts';
import type { HookServices } from '../entities/hook-registry.ts';
import type { EntityHooks } from '../entities/hooks.ts';
import { AqlSyntaxError } from '../search/aql-lexer.ts';
import { parseAql } from '../search/aql-parser.ts';
import { RETENTION_MESSAGES as M } from './messages.ts';
import { policyAql, type RetentionPolicy } from './policy-aql.ts';
import { cancelPending, runningPolicies } from './queue-queries.ts';

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
export function retentionPolicyHooks(services: () => HookServices): EntityHooks {
  return {
    /** A run in flight keeps its policy (its execution names it); a pending one is cancelled. */
    async onDelete(documents) {
      const { db } = services();
      const keys = documents.map((document) => String(document.key));
      const running = await runningPolicies(db, keys);
      if (running.length > 0) throw new Conflict(M.deleteWhileRunning(running));
      await cancelPending(db, keys, M.policyGone(keys.join(', ')));
    },
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
