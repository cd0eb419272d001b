import type { PlanName } from '../../../config'
import type { Session } from '../../../db/schema'
import { EngineError, type QuotedMessage, type SendOptions, type SessionHandle } from '../../../engine/whatsapp/port'
import { GatewayError, notFound } from '../../../errors'
import type { ChatAddress } from '../../../schemas/phone'
import type { GatewayContext } from '../../context'
import { engineFailure } from '../../engine-failure'
import { connectedHandle } from '../../sessions/connected'
import { findSession } from '../../sessions/view'
import { withDeadline } from '../../deadline'
import { validationError } from '../../validation-error'
import { type BindRecord, sendOnce } from './idempotency'
import { takeTurn } from './send-turn'
import { isInteractive, type PreparedMessage, prepareMessage, type SendInput } from './prepare'
import { chatColumns, isChatOf } from '../records/lookup'
import { resolveRecipient } from './recipient'
import { forwardedMessage } from './forward'
import { textMessage } from './text-preview'
import {
  advanceStatus,
  dropUnsentRecord,
  findRecord,
  insertRecord,
  noteRecipient,
  recordHandover,
} from '../records/records'
import { messageView } from '../records/view'
import { keepAudience, statusAudience } from '../../status/audience'

/** The message a reply quotes: one of this session's records in the same chat. */
function quotedMessage(ctx: GatewayContext, session: Session, chat: ChatAddress, quoteId: string): QuotedMessage {
  const record = findRecord(ctx, session.id, quoteId)
  if (!record || !isChatOf(record, chat)) {
    throw new GatewayError('not_found', `quoteId "${quoteId.slice(0, 64)}" is not a message of this chat`, {
      field: 'quoteId',
    })
  }
  return {
    id: record.id,
    chatJid: record.chatJid,
    fromMe: record.direction === 'outbound',
    ...(record.participant && record.direction === 'inbound'
      ? { participant: `${record.participant}@s.whatsapp.net` }
      : {}),
    ...(record.payload ? { payload: new Uint8Array(record.payload) } : {}),
  }
}

/**
 * Sends one message and answers its record. Order: checks (plan, session, quote), media
 * (fetch and convert: 413/422 before anything is recorded), the record (`pending`, bound to
 * the Idempotency-Key), then WhatsApp. The contract:
 * - handed to WhatsApp: 200; the record's `message.status` pending event is written then, and
 *   receipts move it on (or `failed` when WhatsApp refuses it);
 * - not handed over (the session is or goes offline: 409; WhatsApp errors or times out while
 *   preparing it: 502/504): nothing is recorded or announced, the key is released;
 * - not handed over within SEND_TIMEOUT_MS: 504 naming the record, which stays `pending` until
 *   the hand-over ends (then `pending` is announced, or `failed`); a retry with the key answers it.
 */
export async function sendMessage(ctx: GatewayContext, args: SendArgs) {
  const type = args.input.kind === 'audio' && args.input.ptt ? 'ptt' : args.input.kind
  try {
    const answer = await send(ctx, args)
    ctx.metrics.messageSend(type, 'handed_over')
    return answer
  } catch (error) {
    const outcome = error instanceof GatewayError ? error.code : 'internal_error'
    ctx.metrics.messageSend(type, outcome)
    // Only the session's send queue refuses a send with rate_limited (the per-credential limiter is HTTP's).
    if (outcome === 'rate_limited') ctx.metrics.quotaRefused('send_queue')
    throw error
  }
}

type SendArgs = { workspaceId: string; plan: PlanName; input: SendInput; idempotencyKey?: string }

async function send(ctx: GatewayContext, args: SendArgs) {
  const { workspaceId, plan, input } = args
  const session = findSession(ctx, workspaceId, input.sessionId)
  if (isInteractive(input) && !ctx.config.plans[plan].interactiveMessages) {
    throw new GatewayError('plan_required', `Interactive ${input.kind} messages are not part of the ${plan} plan`, {
      feature: input.kind,
      plan,
    })
  }
  // WhatsApp shows no buttons or lists in a channel: refused before anything is asked of it.
  if (input.phone.kind === 'channel' && isInteractive(input))
    throw validationError([{ path: 'phone', message: `a channel takes no ${input.kind} messages` }])

  const messageId = await sendOnce(
    ctx,
    { workspaceId, sessionId: session.id, key: args.idempotencyKey, request: input },
    (bind) => recordAndHandOver(ctx, session, input, bind),
  )

  const record = findRecord(ctx, session.id, messageId)
  if (!record) throw notFound(`Message "${messageId}"`)
  return messageView(record)
}

/**
 * The send itself, run at most once per Idempotency-Key: the message prepared, its turn taken,
 * its record written `pending` and bound to the key, then handed to WhatsApp within
 * SEND_TIMEOUT_MS. Answers the record's id.
 */
async function recordAndHandOver(
  ctx: GatewayContext,
  session: Session,
  input: SendInput,
  bind: BindRecord,
): Promise<string> {
  const chat = chatColumns(input.phone)
  const quoted =
    'quoteId' in input && input.quoteId ? quotedMessage(ctx, session, input.phone, input.quoteId) : undefined
  // Who sees a status is settled before anything is recorded: a status shown to nobody is refused.
  const status = input.status
    ? { ...input.status, contacts: statusAudience(ctx, session, input.status.contacts) }
    : undefined
  const prepared = await prepare(ctx, session, input)
  // Paced sessions wait their turn here, before anything is recorded.
  const { handle, turn } = await takeTurn(
    ctx,
    session,
    connectedHandle(ctx, session),
    input.phone.jid,
    prepared.content,
  )

  const id = handle.newMessageId()
  const now = ctx.clock.now()
  const record = {
    sessionId: session.id,
    id,
    ...chat,
    direction: 'outbound' as const,
    type: prepared.type,
    status: 'pending' as const,
    quoteId: ('quoteId' in input && input.quoteId) || null,
    content: prepared.summary,
    createdAt: now,
    updatedAt: now,
  }
  try {
    insertRecord(ctx, record, { announce: false })
    if (status) keepAudience(ctx, session.id, id, status.contacts)
    bind(id)
  } catch (error) {
    turn?.done(false)
    throw error
  }
  const statusSend = status && {
    audience: status.contacts.map((phone) => `${phone}@s.whatsapp.net`),
    backgroundColor: status.backgroundColor,
    font: status.font,
  }
  const handover = handOver(ctx, session.id, handle, input.phone, prepared, {
    messageId: id,
    quoted,
    status: statusSend,
  })
  // The next paced send's gap counts from when WhatsApp took this one (or gave up on it).
  if (turn)
    handover.then(
      () => turn.done(true),
      () => turn.done(false),
    )
  try {
    await withDeadline(handover, ctx.config.sendTimeoutMs, () => new SendDeadline())
  } catch (error) {
    if (error instanceof SendDeadline) throw stillUnderWay(ctx, session.id, id, handover)
    throw notHandedOver(ctx, session.id, id, handle, input.phone, error)
  }
  return id
}

/** What the request makes: a recorded message forwarded, a text with its link preview, or the rest. */
function prepare(ctx: GatewayContext, session: Session, input: SendInput): Promise<PreparedMessage> {
  if (input.kind === 'forward')
    return Promise.resolve(forwardedMessage(ctx, session, input.messageId, connectedHandle(ctx, session)))
  if (input.kind === 'text') return textMessage(ctx, input)
  return prepareMessage(ctx.media, input)
}

/** The hand-over: who the recipient is (a number must have an account), then the message. */
async function handOver(
  ctx: GatewayContext,
  sessionId: string,
  handle: SessionHandle,
  phone: ChatAddress,
  prepared: PreparedMessage,
  options: SendOptions & { messageId: string },
): Promise<void> {
  const id = options.messageId
  const recipient = await resolveRecipient(handle, phone)
  const sent = await handle.send(recipient.chatJid, prepared.content, options).catch((error: unknown) => {
    // A record kept past the deadline ends `failed`: it still names whom it was for
    noteRecipient(ctx, sessionId, id, recipient)
    throw error
  })
  recordHandover(ctx, sessionId, id, recipient, sent.payload)
  ctx.logger.info({ sessionId, messageId: id, type: prepared.type }, options.status ? 'status posted' : 'message sent')
}

/**
 * A hand-over that failed before the deadline: its record is dropped (nothing was sent), and
 * the error says why, as the API answers it.
 */
function notHandedOver(
  ctx: GatewayContext,
  sessionId: string,
  id: string,
  handle: SessionHandle,
  phone: ChatAddress,
  error: unknown,
): GatewayError {
  dropUnsentRecord(ctx, sessionId, id)
  ctx.logger.warn({ err: error, sessionId, messageId: id }, 'send not handed to WhatsApp')
  // Whatever the socket threw, a session that is no longer online is the one rule: 409.
  if (!handle.online) return notConnectedAnymore()
  if (error instanceof GatewayError) return error
  if (notInGroup(error))
    return new GatewayError('not_found', `The account is not in group ${phone.jid}; nothing was sent or recorded`)
  return engineFailure(error, {
    timeout: 'WhatsApp did not answer while the message was prepared; nothing was sent or recorded',
    upstream: 'WhatsApp refused the message; nothing was sent or recorded',
    not_connected: 'The session went offline before the message was handed over; nothing was sent or recorded',
    // Only a group's metadata is looked up before sending: the jid names no group this account sees.
    not_found: `WhatsApp knows no group ${phone.jid}; nothing was sent or recorded`,
  })
}

class SendDeadline extends Error {}

/** A group the account is not in: WhatsApp forbids reading its metadata (403), which Baileys does before sending. */
const notInGroup = (error: unknown) => error instanceof EngineError && error.kind === 'refused' && error.code === 403

const notConnectedAnymore = () =>
  new GatewayError(
    'session_not_connected',
    'The session went offline before the message was handed over; nothing was sent or recorded',
  )

/**
 * The deadline passed while WhatsApp still had the message in hand: the record stays, and
 * ends `failed` if the hand-over fails later (or is announced `pending` when it succeeds).
 */
function stillUnderWay(
  ctx: GatewayContext,
  sessionId: string,
  messageId: string,
  handover: Promise<void>,
): GatewayError {
  handover.catch((error: unknown) => {
    ctx.logger.warn({ err: error, sessionId, messageId }, 'send failed after its deadline')
    const noAccount = error instanceof GatewayError && error.code === 'not_found'
    advanceStatus(ctx, sessionId, messageId, { status: 'failed', reason: noAccount ? 'no_account' : 'send_failed' })
  })
  return new GatewayError(
    'upstream_timeout',
    `WhatsApp did not take the message within ${ctx.config.sendTimeoutMs} ms; its record stays pending until it does or fails (GET /v1/message/${messageId}); a retry with the same Idempotency-Key answers that record`,
    { messageId, status: 'pending' },
  )
}
