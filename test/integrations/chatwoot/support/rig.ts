import type { AddressInfo } from 'node:net'
import { serve, type ServerType } from '@hono/node-server'
import { expect } from 'vitest'
import { startChatwootStandIn, type ChatwootStandIn } from '../../../support/chatwoot/stand-in'
import type { Message } from '../../../support/chatwoot/stand-in'
import { pollUntil } from '../../../support/poll'
import { startSimulatedGateway, type SimulatedGateway } from '../../../support/simulated-gateway'
import { fastWebhooks, loopbackWebhooks } from '../../../support/webhook-receiver'
import type { GatewayConfig } from '../../../../src/config'
import { createLogger } from '../../../../src/logger'

export interface ChatwootRig {
  t: SimulatedGateway
  cw: ChatwootStandIn
  /** Where the gateway is served (its PUBLIC_URL: Chatwoot's callbacks reach it there). */
  baseUrl: string
  /** Every line the gateway logged (at info), as written. */
  logs: string[]
  put(sessionId: string, body: Record<string, unknown>): Promise<Response>
  /** PUT with the stand-in's URL, account and token; expects 200. */
  enable(sessionId: string, extra?: Record<string, unknown>): Promise<any>
  /** The open (or pending) conversation of the contact with this number, if any. */
  conversationOf(phone: string): ReturnType<ChatwootStandIn['conversations']['find']>
  messagesIn(conversationId: number): Message[]
  /** Polls until a message containing `content` is in a conversation matching `where`. */
  waitForMessage(content: string, where?: (message: Message) => boolean): Promise<Message>
  close(): Promise<void>
}

/**
 * The gateway served over loopback HTTP (PUBLIC_URL = that address), the WhatsApp simulator and
 * the Chatwoot stand-in: what every Chatwoot suite starts from.
 */
export async function startChatwootRig(config: Partial<GatewayConfig> = {}): Promise<ChatwootRig> {
  const cw = await startChatwootStandIn()
  let t: SimulatedGateway | undefined
  let server: ServerType | undefined
  await new Promise<void>((resolve) => {
    server = serve({ fetch: (request) => t!.gateway.app.fetch(request), port: 0, hostname: '127.0.0.1' }, () =>
      resolve(),
    )
  })
  const baseUrl = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`
  const logs: string[] = []
  t = await startSimulatedGateway({
    plan: 'paid',
    logger: createLogger('info', { write: (line: string) => void logs.push(line) }),
    config: { ...loopbackWebhooks, webhooks: fastWebhooks(), publicUrl: baseUrl, ...config },
  })
  const gateway = t
  const put = (sessionId: string, body: Record<string, unknown>) =>
    gateway.request(`/v1/session/${sessionId}/chatwoot`, {
      method: 'PUT',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    })
  const messagesIn = (conversationId: number) => cw.messages.filter((m) => m.conversationId === conversationId)
  return {
    t: gateway,
    cw,
    baseUrl,
    logs,
    put,
    async enable(sessionId, extra = {}) {
      const response = await put(sessionId, { url: cw.url, accountId: cw.accountId, apiToken: cw.token, ...extra })
      expect(response.status, await response.clone().text()).toBe(200)
      return response.json()
    },
    conversationOf(phone) {
      const contact = cw.contacts.find((c) => c.phoneNumber === `+${phone}`)
      return contact && cw.conversations.find((c) => c.contactId === contact.id && c.status !== 'resolved')
    },
    messagesIn,
    waitForMessage: (content, where = () => true) =>
      pollUntil(
        () => cw.messages.find((m) => m.content?.includes(content) && where(m)),
        (found) => found !== undefined,
        { timeoutMs: 10_000, what: `Chatwoot to have "${content}"` },
      ).then((m) => m!),
    async close() {
      await new Promise((resolve) => server?.close(resolve))
      await gateway.close()
      await cw.close()
    },
  }
}
