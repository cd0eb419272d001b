import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../env'
import { operatorBearer } from './operator-bearer'

/** `/v1/admin/*` takes only the operator's ADMIN_API_KEY as its bearer (a workspace's key or JWT is a 401). */
export const adminAuth = (expected: string): MiddlewareHandler<AppEnv> =>
  operatorBearer(expected, { secret: '<ADMIN_API_KEY>', invalid: 'Invalid admin API key' })
