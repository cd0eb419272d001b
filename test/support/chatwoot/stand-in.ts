import type http from 'node:http'
import { startLoopbackServer } from '../loopback-server'
import { requestContract } from './contract'
import {
  ChatwootAccount,
  ChatwootError,
  type Contact,
  type ContactInbox,
  type Conversation,
  type Inbox,
  type Message,
  type User,
} from './model'
import { chatwootContract } from './overlay'
import { readBody } from './request-body'
import { routes } from './routes'
import { views } from './views'

export type { Attachment, Contact, ContactInbox, Conversation, Inbox, Message } from './model'

/**
 * A Chatwoot in the test process: one account, its Application API (the operations of the
 * vendored OpenAPI document) answered from memory as Chatwoot's controllers answer, every request
 * checked against that document, and the API channel inbox's webhook_url posted the events
 * Chatwoot's WebhookListener posts (app/listeners/webhook_listener.rb).
 */
export interface ChatwootStandIn {
  url: string
  accountId: number
  token: string
  violations: { method: string; path: string; errors: string[] }[]
  requests: { method: string; path: string; query: Record<string, string>; body: unknown }[]
  inboxes: Inbox[]
  contacts: Contact[]
  contactInboxes: ContactInbox[]
  conversations: Conversation[]
  messages: Message[]
  /** Every post to a webhook_url, in order, with the status it was answered (0: not reached). */
  deliveries: { event: string; url: string; status: number; payload: any }[]
  down: boolean
  /**
   * Milliseconds between doing what a request asks and answering it (default 0): the window in
   * which a client that dies has made something without learning so (the crash tests).
   */
  answerDelayMs: number
  agentReply(
    conversationId: number,
    reply: {
      content?: string
      private?: boolean
      attachments?: { fileName: string; mimeType: string; bytes: Uint8Array }[]
      agentName?: string
    },
  ): Promise<{ message: Message; callbackStatus: number }>
  deleteMessageInUi(conversationId: number, messageId: number): Promise<{ callbackStatus: number }>
  deleteContact(contactId: number): void
  resolve(conversationId: number): void
  /** Resolves once every webhook post started so far has been answered. */
  settled(): Promise<void>
  close(): Promise<void>
}

export interface StandInOptions {
  accountId?: number
  token?: string
  agentName?: string
  /** A larger body is refused 413 unread (default MAX_BODY_BYTES, 50 MB). */
  maxBodyBytes?: number
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]'])
const BLOB_PATH = /^\/rails\/active_storage\/blobs\/redirect\/(\d+)\//

export async function startChatwootStandIn(options: StandInOptions = {}): Promise<ChatwootStandIn> {
  const account = new ChatwootAccount(options.accountId ?? 1, 'Stand-in account')
  const agent = account.user(options.agentName ?? 'Stand-in Agent')
  const token = options.token ?? 'stand-in-agent-token'
  const contract = requestContract(chatwootContract())
  const view = views(account, () => standIn.url)
  const pending = new Set<Promise<unknown>>()

  // WebhookJob → Webhooks::Trigger: a JSON POST with a 5 s timeout; loopback only in tests.
  const post = async (inbox: Inbox, payload: any): Promise<number> => {
    const url = inbox.webhookUrl
    if (!url) return 0
    const delivery = { event: payload.event as string, url, status: 0, payload }
    standIn.deliveries.push(delivery)
    if (!LOOPBACK.has(new URL(url).hostname)) return 0
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(5000),
      })
      await response.arrayBuffer()
      delivery.status = response.status
    } catch {}
    return delivery.status
  }
  const inBackground = (work: Promise<unknown>) => {
    pending.add(work)
    void work.finally(() => pending.delete(work))
  }
  const dispatch = {
    messageCreated: (m: Message) => {
      // Message#webhook_sendable? (app/models/concerns/message_filter_helpers.rb): incoming,
      // outgoing and template messages, whoever created them, private notes included.
      if (m.messageType === 'activity') return Promise.resolve(0)
      return post(account.inbox(m.inboxId), view.messageEvent('message_created', m))
    },
    messageUpdated: (m: Message) => post(account.inbox(m.inboxId), view.messageEvent('message_updated', m)),
    conversationCreated: (c: Conversation) =>
      post(account.inbox(c.inboxId), { ...view.conversationEvent(c), event: 'conversation_created' }),
    statusChanged: (c: Conversation, by: User | null, previous: Conversation['status']) => {
      // Conversation#create_activity: who changed it, as an activity message (never posted itself).
      if (by && (c.status === 'resolved' || c.status === 'open'))
        account.createMessage(c, by, {
          message_type: 'activity',
          content:
            c.status === 'resolved'
              ? `Conversation was marked resolved by ${by.name}`
              : `Conversation was reopened by ${by.name}`,
        })
      return post(account.inbox(c.inboxId), {
        ...view.conversationEvent(c),
        event: 'conversation_status_changed',
        // WebhookListener#extract_changed_attributes: each change as { attribute: { current, previous } }.
        changed_attributes: [{ status: { current_value: c.status, previous_value: previous } }],
      })
    },
  }

  const send = (
    response: http.ServerResponse,
    status: number,
    body?: unknown,
    type = 'application/json; charset=utf-8',
  ) => {
    if (body === undefined) return response.writeHead(status, { 'content-length': 0 }).end()
    const text = typeof body === 'string' ? body : JSON.stringify(body)
    response.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) }).end(text)
  }

  const serveBlob = (id: number, response: http.ServerResponse) => {
    const attachment = account.messages.flatMap((m) => m.attachments).find((a) => a.id === id)
    if (!attachment) return send(response, 404, 'Not Found', 'text/plain')
    response
      .writeHead(200, { 'content-type': attachment.mimeType, 'content-length': attachment.bytes.byteLength })
      .end(Buffer.from(attachment.bytes))
  }

  const handle = async (request: http.IncomingMessage, response: http.ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://stand-in.test')
    const blob = BLOB_PATH.exec(url.pathname)
    if (blob)
      return standIn.down
        ? send(response, 503, 'Service Unavailable', 'text/plain')
        : serveBlob(Number(blob[1]), response)

    const body = await readBody(request, options.maxBodyBytes)
    if (body.tooLarge) return send(response, 413, { error: 'Request Entity Too Large' })
    const method = request.method ?? 'GET'
    standIn.requests.push({
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: body.forLog,
    })
    const errors = await contract.problems({
      method,
      pathname: url.pathname,
      query: url.searchParams,
      headers: request.headers,
      body: body.forContract,
      mediaType: body.mediaType,
      malformed: body.malformed,
    })
    if (errors.length) standIn.violations.push({ method, path: url.pathname, errors })

    if (standIn.down) return send(response, 503, 'Service Unavailable', 'text/plain')
    // Api::BaseController: no token → Devise's answer; an unknown one → AccessTokenAuthHelper's.
    const given = request.headers.api_access_token
    if (given === undefined)
      return send(response, 401, { errors: ['You need to sign in or sign up before continuing.'] })
    if (given !== token) return send(response, 401, { error: 'Invalid Access Token' })
    const operation = contract.match(method, url.pathname)
    const route = operation && routes[`${operation.method} ${operation.path}`]
    if (!operation || !route) return send(response, 404, { error: 'Not Found' })
    // EnsureCurrentAccountHelper: the agent belongs to this one account only.
    if (operation.params.account_id !== undefined && Number(operation.params.account_id) !== account.id)
      return send(response, 401, { error: 'You are not authorized to access this account' })
    if (body.malformed) return send(response, 400, { error: `There was a problem in the body: ${body.malformed}` })

    const background =
      <T>(event: (arg: T, ...rest: any[]) => Promise<number>) =>
      (arg: T, ...rest: any[]) =>
        inBackground(event(arg, ...rest))
    try {
      const answer = route({
        account,
        view,
        agent,
        params: {
          ...Object.fromEntries(url.searchParams),
          ...body.params,
          ...operation.params,
        },
        token,
        files: body.files,
        messageCreated: background(dispatch.messageCreated),
        messageUpdated: background(dispatch.messageUpdated),
        conversationCreated: background(dispatch.conversationCreated),
        statusChanged: background(dispatch.statusChanged),
      })
      if (standIn.answerDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, standIn.answerDelayMs))
      send(response, answer.status, answer.body)
    } catch (error) {
      if (error instanceof ChatwootError) return send(response, error.status, error.body)
      send(response, 500, { error: (error as Error).message })
    }
  }

  const server = await startLoopbackServer((request, response) => {
    handle(request, response).catch((error) => {
      if (!response.headersSent) send(response, 500, { error: (error as Error).message })
    })
  })

  const standIn: ChatwootStandIn = {
    url: server.url('').replace(/\/$/, ''),
    accountId: account.id,
    token,
    violations: [],
    requests: [],
    inboxes: account.inboxes,
    contacts: account.contacts,
    contactInboxes: account.contactInboxes,
    conversations: account.conversations,
    messages: account.messages,
    deliveries: [],
    down: false,
    answerDelayMs: 0,
    async agentReply(conversationId, reply) {
      const conversation = account.conversation(conversationId)
      const by = reply.agentName ? account.user(reply.agentName) : agent
      const message = account.createMessage(
        conversation,
        by,
        { content: reply.content, private: reply.private ?? false, message_type: 'outgoing' },
        reply.attachments ?? [],
      )
      return { message, callbackStatus: await dispatch.messageCreated(message) }
    },
    async deleteMessageInUi(conversationId, messageId) {
      const message = account.messages.find((m) => m.conversationId === conversationId && m.id === messageId)
      if (!message) throw new Error(`no message ${messageId} in conversation ${conversationId}`)
      account.deleteMessage(message)
      return { callbackStatus: await dispatch.messageUpdated(message) }
    },
    deleteContact(contactId) {
      account.deleteContact(account.contact(contactId))
    },
    resolve(conversationId) {
      const conversation = account.conversation(conversationId)
      const previous = conversation.status
      if (previous === 'resolved') return
      conversation.status = 'resolved'
      inBackground(dispatch.statusChanged(conversation, agent, previous))
    },
    async settled() {
      while (pending.size) await Promise.allSettled([...pending])
    },
    async close() {
      await standIn.settled()
      contract.close()
      await server.close()
    },
  }
  return standIn
}
