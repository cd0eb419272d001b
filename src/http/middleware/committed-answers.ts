import type { MiddlewareHandler } from 'hono'
import type { GatewayDatabase } from '../../db/database'
import { commitWrites } from '../../perf/group-commit'
import type { AppEnv } from '../env'

/**
 * No answer reports a write that is not yet durable: what joined the open group commit
 * (perf/group-commit.ts) during the request is committed before its response leaves.
 */
export function committedAnswers(db: GatewayDatabase): MiddlewareHandler<AppEnv> {
  return async function committedAnswers(_c, next) {
    try {
      await next()
    } finally {
      commitWrites(db)
    }
  }
}
