import { AddressRefused } from '../../net/pinned-address'
import { requestSignal } from '../../net/request-signal'
import { type GuardedRequestOptions, guardedRequest } from '../../net/guarded-request'
import type { HostResolver } from '../../net/host-resolver'
import { networkReason } from '../../net/network-reason'

/**
 * Chatwoot's Application API, the operations the integration uses (checked against Chatwoot's
 * published OpenAPI by the stand-in of test/support/chatwoot). Every request goes through the
 * guarded network path with the account's `api_access_token`.
 */

/** What Chatwoot answered, or why it could not (status 0: no answer). */
export class ChatwootError extends Error {
  override readonly name = 'ChatwootError'
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
  get unreachable() {
    return this.status === 0 || this.status >= 500 || this.status === 429
  }
}

export interface ChatwootTarget {
  url: string
  accountId: number
  apiToken: string
}

export interface ChatwootNetwork {
  allowHttp: boolean
  allowPrivateAddresses: boolean
  timeoutMs: number
  resolver?: HostResolver
}

export interface Attachment {
  fileName: string
  mimeType: string
  bytes: Uint8Array
}

type Json = Record<string, unknown>
const MAX_ANSWER = 2 * 1024 * 1024

export function chatwootClient(target: ChatwootTarget, network: ChatwootNetwork, signal?: AbortSignal) {
  const base = `${target.url.replace(/\/+$/, '')}/api/v1/accounts/${target.accountId}`

  async function call(method: GuardedRequestOptions['method'], path: string, body?: Json | FormData): Promise<Json> {
    const bounded = requestSignal(signal, network.timeoutMs)
    const headers: Record<string, string> = { api_access_token: target.apiToken, accept: 'application/json' }
    let bytes: Uint8Array | undefined
    if (body instanceof FormData) {
      // Web FormData serialised by Response: the multipart body and its boundary, on Node and Bun alike.
      const encoded = new Response(body)
      headers['content-type'] = encoded.headers.get('content-type')!
      bytes = new Uint8Array(await encoded.arrayBuffer())
    } else if (body) {
      headers['content-type'] = 'application/json'
      bytes = new TextEncoder().encode(JSON.stringify(body))
    }
    let answer: Awaited<ReturnType<typeof guardedRequest>>
    try {
      answer = await guardedRequest(new URL(`${base}${path}`), {
        method,
        headers,
        body: bytes,
        signal: bounded.signal,
        maxBytes: MAX_ANSWER,
        policy: { allowHttp: network.allowHttp, allowPrivateAddresses: network.allowPrivateAddresses },
        resolver: network.resolver,
      })
    } catch (error) {
      if (error instanceof AddressRefused) throw new ChatwootError(0, `refused: ${error.message}`)
      if (bounded.timedOut) throw new ChatwootError(0, `no answer within ${network.timeoutMs} ms`)
      throw new ChatwootError(
        0,
        error instanceof Error && error.message.startsWith('the URL') ? error.message : networkReason(error),
      )
    } finally {
      bounded.release()
    }
    const text = new TextDecoder().decode(answer.body)
    let parsed: unknown = {}
    try {
      parsed = text ? JSON.parse(text) : {}
    } catch {
      if (answer.status < 300) throw new ChatwootError(502, `Chatwoot answered ${answer.status} with no JSON`)
    }
    if (answer.status < 200 || answer.status > 299)
      throw new ChatwootError(answer.status, reasonOf(answer.status, parsed))
    return (parsed ?? {}) as Json
  }

  return {
    async listInboxes(): Promise<{ id: number; name: string }[]> {
      return listOf(await call('GET', '/inboxes')) as { id: number; name: string }[]
    },
    async createApiInbox(name: string, webhookUrl: string): Promise<{ id: number; name: string }> {
      return (await call('POST', '/inboxes', { name, channel: { type: 'api', webhook_url: webhookUrl } })) as {
        id: number
        name: string
      }
    },
    async searchContacts(q: string): Promise<ContactView[]> {
      return listOf(await call('GET', `/contacts/search?q=${encodeURIComponent(q)}`)) as ContactView[]
    },
    /** Creates the contact with its contact-inbox on `sourceId` (Chatwoot's controller passes source_id on). */
    async createContact(contact: {
      inboxId: number
      sourceId: string
      name: string
      phone?: string
      identifier: string
    }) {
      const answer = await call('POST', '/contacts', {
        inbox_id: contact.inboxId,
        source_id: contact.sourceId,
        name: contact.name,
        identifier: contact.identifier,
        ...(contact.phone ? { phone_number: contact.phone } : {}),
      })
      const payload = (answer.payload ?? answer) as Json
      return ((payload.contact ?? payload) as ContactView).id
    },
    async getContact(id: number): Promise<ContactView> {
      const answer = await call('GET', `/contacts/${id}`)
      return (answer.payload ?? answer) as ContactView
    },
    async addContactInbox(contactId: number, inboxId: number, sourceId: string) {
      await call('POST', `/contacts/${contactId}/contact_inboxes`, { inbox_id: inboxId, source_id: sourceId })
    },
    async contactConversations(contactId: number): Promise<ConversationView[]> {
      return listOf(await call('GET', `/contacts/${contactId}/conversations`)) as ConversationView[]
    },
    async createConversation(input: { sourceId: string; inboxId: number; contactId: number; status: string }) {
      const answer = await call('POST', '/conversations', {
        source_id: input.sourceId,
        inbox_id: input.inboxId,
        contact_id: input.contactId,
        status: input.status,
      })
      return answer.id as number
    },
    async getConversation(id: number): Promise<ConversationView> {
      return (await call('GET', `/conversations/${id}`)) as unknown as ConversationView
    },
    async setStatus(id: number, status: 'open' | 'pending' | 'resolved') {
      await call('POST', `/conversations/${id}/toggle_status`, { status })
    },
    async createMessage(
      conversationId: number,
      message: { content: string; incoming: boolean; sourceId: string; attachments?: Attachment[] },
    ): Promise<number> {
      const path = `/conversations/${conversationId}/messages`
      const type = message.incoming ? 'incoming' : 'outgoing'
      if (!message.attachments?.length) {
        const answer = await call('POST', path, {
          content: message.content,
          message_type: type,
          private: false,
          source_id: message.sourceId,
        })
        return answer.id as number
      }
      const form = new FormData()
      form.set('content', message.content)
      form.set('message_type', type)
      form.set('private', 'false')
      form.set('source_id', message.sourceId)
      for (const file of message.attachments)
        form.append('attachments[]', new Blob([file.bytes], { type: file.mimeType }), file.fileName)
      return (await call('POST', path, form)).id as number
    },
    async recentMessages(conversationId: number): Promise<{ id: number; source_id?: string | null }[]> {
      return listOf(await call('GET', `/conversations/${conversationId}/messages`)) as {
        id: number
        source_id?: string | null
      }[]
    },
    async deleteMessage(conversationId: number, messageId: number) {
      await call('DELETE', `/conversations/${conversationId}/messages/${messageId}`)
    },
  }
}

export type ChatwootClient = ReturnType<typeof chatwootClient>

export interface ContactView {
  id: number
  name?: string | null
  phone_number?: string | null
  identifier?: string | null
}

export interface ConversationView {
  id: number
  inbox_id?: number
  status?: string
}

/** Chatwoot's lists come as `{payload: [...]}` (contacts, messages, inboxes) or a bare array. */
function listOf(answer: Json): unknown[] {
  if (Array.isArray(answer)) return answer
  if (Array.isArray(answer.payload)) return answer.payload
  return []
}

/** Chatwoot's error bodies: `{message}`, `{error}` or `{errors: [...]}`; short and secret-free. */
function reasonOf(status: number, body: unknown): string {
  const b = (body ?? {}) as { message?: unknown; error?: unknown; errors?: unknown }
  const said = [b.message, b.error, Array.isArray(b.errors) ? b.errors.join('; ') : b.errors].find(
    (part) => typeof part === 'string' && part.length > 0,
  ) as string | undefined
  return `Chatwoot answered ${status}${said ? `: ${said.slice(0, 200)}` : ''}`
}
