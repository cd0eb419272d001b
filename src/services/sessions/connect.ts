import type { HistorySetting } from '../../db/schema'
import { and, count, eq, inArray } from 'drizzle-orm'
import type { PlanName } from '../../config'
import {
  isLive,
  liveStatuses,
  sessions,
  storedWebhookUrl,
  type Session,
  type Workspace,
  webhookUrlOf,
} from '../../db/schema'
import type { SessionStatus } from '../../shared/session-statuses'
import { EngineError, type PairingPrompt } from '../../engine/whatsapp/port'
import { withDeadline } from '../deadline'
import { engineFailure } from '../engine-failure'
import { GatewayError } from '../../errors'
import { newSessionId } from '../../ids'
import type { ConnectSessionInput } from '../../schemas/session'
import type { GatewayContext } from '../context'
import { assertSessionCap, assertWebhookEvents, assertWebhookUrl, resolveWebhookMessages } from './plan-rules'
import { assertProxyUrl, proxyView, sessionProxy } from './proxy'
import { historyAsk, historySetting } from '../history/setting'
import { newWebhookSecret } from '../../webhooks/secret'
import { announceStatusChange, insertPendingSession, transition, writeStatus } from './transitions'
import { sessionById } from './view'

/**
 * Finds or creates the session for a name in one synchronous transaction, so concurrent
 * connects with one name end with one session; a finished one is re-paired under its id.
 */
function claimSession(
  ctx: GatewayContext,
  workspace: Workspace,
  plan: PlanName,
  input: ConnectSessionInput,
  webhookMessages: boolean,
  history: HistorySetting | null,
): { session: Session; previousStatus: SessionStatus | null } {
  return ctx.db.transaction(
    (tx) => {
      const now = ctx.clock.now()
      // The new pairing's settings; its status (pending) is the transition table's to write.
      const pairing = {
        webhookUrl: storedWebhookUrl(input.webhookUrl ?? null),
        webhookMessages,
        webhookEvents: input.webhookEvents ?? null,
        pairingMode: input.mode,
        pairingNumber: input.pairingNumber ?? null,
        proxyUrl: input.proxyUrl ?? null,
        sendPacing: input.sendPacing ?? null,
        history,
        historySyncedAt: null,
      }
      const existing = tx
        .select()
        .from(sessions)
        .where(and(eq(sessions.workspaceId, workspace.id), eq(sessions.name, input.sessionName)))
        .get()
      if (existing && isLive(existing.status)) {
        throw new GatewayError('session_name_taken', `A session named "${input.sessionName}" is ${existing.status}`, {
          sessionId: existing.id,
          status: existing.status,
        })
      }
      // Counted in the same write transaction, so concurrent connects cannot pass the cap together.
      const live = tx
        .select({ n: count() })
        .from(sessions)
        .where(and(eq(sessions.workspaceId, workspace.id), inArray(sessions.status, liveStatuses)))
        .get()!.n
      assertSessionCap(ctx.config, plan, live)
      if (existing) {
        // A re-pairing is the table's finished → pending, written with the pairing's settings in
        // the one claim transaction (a new pairing shows its own QR, once WhatsApp offers one).
        const written = writeStatus(tx, ctx, existing, { status: 'pending', reason: null }, pairing)
        if (!written) throw new Error(`no transition ${existing.status} → pending`)
        return { session: written.session, previousStatus: existing.status }
      }
      const session = insertPendingSession(tx, ctx, {
        ...pairing,
        qrCode: null,
        qrOfferedAt: null,
        id: newSessionId(),
        workspaceId: workspace.id,
        name: input.sessionName,
        webhookSecret: newWebhookSecret(),
        createdAt: now,
        updatedAt: now,
      })
      return { session, previousStatus: null }
    },
    { behavior: 'immediate' },
  )
}

export async function connectSession(
  ctx: GatewayContext,
  { workspace, plan, input }: { workspace: Workspace; plan: PlanName; input: ConnectSessionInput },
) {
  const webhookMessages = resolveWebhookMessages(ctx, plan, input.webhookMessages)
  assertWebhookEvents(ctx, plan, input.webhookEvents)
  if (input.webhookUrl !== undefined) await assertWebhookUrl(ctx, input.webhookUrl)
  if (input.proxyUrl) await assertProxyUrl(ctx, input.proxyUrl)
  const history = input.history ? historySetting(ctx, input.history) : null
  const { session, previousStatus } = claimSession(ctx, workspace, plan, input, webhookMessages, history)
  if (previousStatus) announceStatusChange(ctx, session, previousStatus)
  ctx.logger.info(
    { sessionId: session.id, mode: input.mode, repairing: Boolean(previousStatus) },
    'session pairing started',
  )

  // A re-pairing starts from nothing: no old connection, no old keys.
  await ctx.engine.session(session.id)?.end()
  ctx.engine.wipeCredentials(session.id)
  let prompt: PairingPrompt
  try {
    prompt = await withDeadline(
      ctx.engine
        .open(session.id, {
          mode: input.mode,
          pairingNumber: input.pairingNumber,
          autoRejectCalls: session.autoRejectCalls,
          proxy: sessionProxy(ctx, session),
          history: historyAsk(session),
        })
        .then(async (handle) => {
          // A DELETE may have come while the engine got ready: the client's disconnect wins.
          assertStillPairing(ctx, session.id)
          const first = await handle.prompt
          assertStillPairing(ctx, session.id)
          return first
        }),
      ctx.config.connectTimeoutMs,
      () => new EngineError('timeout', `no QR code within ${ctx.config.connectTimeoutMs} ms`),
    )
  } catch (error) {
    throw pairingFailure(ctx, session.id, error)
  }

  return {
    sessionId: session.id,
    status: session.status,
    qrCode: prompt.qr,
    ...(prompt.pairingCode ? { pairingCode: prompt.pairingCode } : {}),
    webhookUrl: webhookUrlOf(session.webhookUrl),
    webhookMessages: session.webhookMessages,
    webhookEvents: session.webhookEvents,
    webhookSecret: session.webhookSecret,
    proxyUrl: proxyView(session.proxyUrl),
    sendPacing: session.sendPacing,
    history: session.history,
  }
}

/**
 * Why pairing could not start, as the API error; the session ends `expired` unless the
 * client disconnected it meanwhile, which always wins (and is what connect then says).
 */
function pairingFailure(ctx: GatewayContext, sessionId: string, error: unknown): GatewayError {
  const handle = ctx.engine.session(sessionId)
  void handle?.end()
  if (error instanceof GatewayError) return error
  const failure = engineFailure(error, {
    timeout: 'WhatsApp did not offer a QR code in time; try again',
    upstream: 'WhatsApp refused to start pairing; try again',
    not_connected: 'The connection closed before WhatsApp offered a QR code; try again',
  })
  const reason = failure.code === 'upstream_timeout' ? 'upstream_timeout' : 'pairing_failed'
  const result = transition(ctx, sessionId, { status: 'expired', reason })
  if (!result.applied && result.session?.status === 'disconnected') return disconnectedWhilePairing(ctx, sessionId)
  ctx.logger.warn({ err: error, sessionId }, 'pairing could not start')
  // The close already said why (outdated_version, proxy_unreachable, ...): answer it too.
  const statusReason = result.applied ? reason : result.session?.statusReason
  return new GatewayError(failure.code, failure.message, { ...failure.details, status: 'expired', statusReason })
}

function disconnectedWhilePairing(ctx: GatewayContext, sessionId: string): GatewayError {
  ctx.logger.info({ sessionId }, 'session disconnected by the client while pairing')
  return new GatewayError(
    'session_not_connected',
    'The session was disconnected before pairing finished; connect again to pair it',
    {
      status: 'disconnected',
    },
  )
}

/** Throws the 409 connect answers when the client disconnected the session meanwhile. */
function assertStillPairing(ctx: GatewayContext, sessionId: string): void {
  const status = sessionById(ctx.db, sessionId)?.status
  if (status === 'disconnected') throw disconnectedWhilePairing(ctx, sessionId)
}
