import { and, eq, sql } from 'drizzle-orm'
import { contactCheckUsage } from '../../db/schema'
import { GatewayError } from '../../errors'
import type { CoreContext } from '../context'

export interface QuotaWindow {
  day: string
  limit: number
  resetsAt: Date
}

/** The UTC day a moment falls in, and when it ends. */
export function quotaWindow(now: Date, limit: number): QuotaWindow {
  const day = now.toISOString().slice(0, 10)
  const resetsAt = new Date(`${day}T00:00:00.000Z`)
  resetsAt.setUTCDate(resetsAt.getUTCDate() + 1)
  return { day, limit, resetsAt }
}

/** Where a workspace stands against its daily quota; the HTTP layer turns it into RateLimit-* headers. */
export interface QuotaState {
  limit: number
  remaining: number
  resetsAt: Date
}

export const quotaState = (window: QuotaWindow, used: number): QuotaState => ({
  limit: window.limit,
  remaining: Math.max(0, window.limit - used),
  resetsAt: window.resetsAt,
})

/**
 * Counts `count` checks against the day's quota, all or nothing, in one IMMEDIATE
 * transaction: concurrent requests (even from other processes) serialise on the write
 * lock, so the counter never passes the limit and never loses a count.
 * Answers the new total; throws 429 with the day's figures when the request would exceed it.
 */
export function reserveChecks(ctx: CoreContext, workspaceId: string, count: number, window: QuotaWindow): number {
  return ctx.db.transaction(
    (tx) => {
      const row = tx
        .select({ used: contactCheckUsage.used })
        .from(contactCheckUsage)
        .where(and(eq(contactCheckUsage.workspaceId, workspaceId), eq(contactCheckUsage.day, window.day)))
        .get()
      const used = row?.used ?? 0
      if (used + count > window.limit) {
        const remaining = Math.max(0, window.limit - used)
        throw new GatewayError(
          'daily_limit_exceeded',
          `Daily contact check limit reached: ${remaining} ${remaining === 1 ? 'check remains' : 'checks remain'} today, this request needs ${count}`,
          { limit: window.limit, used, remaining, resetsAt: window.resetsAt.toISOString() },
        )
      }
      tx.insert(contactCheckUsage)
        .values({ workspaceId, day: window.day, used: count })
        .onConflictDoUpdate({
          target: [contactCheckUsage.workspaceId, contactCheckUsage.day],
          set: { used: sql`${contactCheckUsage.used} + ${count}` },
        })
        .run()
      return used + count
    },
    { behavior: 'immediate' },
  )
}

/** Gives back checks the network never answered. */
export function refundChecks(ctx: CoreContext, workspaceId: string, count: number, window: QuotaWindow): void {
  ctx.db
    .update(contactCheckUsage)
    .set({ used: sql`max(0, ${contactCheckUsage.used} - ${count})` })
    .where(and(eq(contactCheckUsage.workspaceId, workspaceId), eq(contactCheckUsage.day, window.day)))
    .run()
}
