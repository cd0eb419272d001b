import { type BinaryNode, getBinaryNodeChild, proto, S_WHATSAPP_NET, type WASocket } from '@whiskeysockets/baileys'
import type { ChannelInfo, ChannelKey, ChannelPost, SessionChannels } from '../port/channels'
import { EngineError } from '../port'
import { withNetworkErrors } from '../socket/network-errors'
import { serverQuery } from '../socket/server-query'
import { toChannelInfo, toChannelPost } from './channel-mappers'

/**
 * WhatsApp Web's GraphQL query ids (w:mex). Metadata, follow and unfollow: Baileys 7's
 * lib/Types/Mex.js (QueryIds). The subscribed list: Baileys has no helper; whatsmeow's
 * newsletter.go names this id (variables empty, answer xwa2_newsletter_subscribed).
 */
const QUERY = {
  metadata: { id: '6563316087068696', path: 'xwa2_newsletter' },
  follow: { id: '24404358912487870', path: 'xwa2_newsletter_join_v2' },
  unfollow: { id: '9767147403369991', path: 'xwa2_newsletter_leave_v2' },
  subscribed: { id: '6388546374527196', path: 'xwa2_newsletter_subscribed' },
} as const

type Query = (typeof QUERY)[keyof typeof QUERY]

const mexIq = (queryId: string, variables: object): BinaryNode => ({
  tag: 'iq',
  attrs: { type: 'get', to: S_WHATSAPP_NET, xmlns: 'w:mex' },
  content: [
    { tag: 'query', attrs: { query_id: queryId }, content: Buffer.from(JSON.stringify({ variables }), 'utf-8') },
  ],
})

/**
 * The account's channels (SessionHandle.channels), built as Baileys' newsletter socket builds its
 * queries but asked through serverQuery (silence is a timeout, not an empty answer), and with
 * GraphQL errors read to their code: 404 is not_found, another 4xx refused, anything else upstream.
 */
export class ChannelLayer implements SessionChannels {
  constructor(private readonly socket: () => WASocket) {}

  async list(): Promise<ChannelInfo[]> {
    const data = await this.#mex(QUERY.subscribed, {}, 'the channel list')
    if (!Array.isArray(data)) throw new EngineError('upstream', 'WhatsApp answered the channel list without a list')
    return data.flatMap((entry) => toChannelInfo(entry) ?? [])
  }

  async info(key: ChannelKey): Promise<ChannelInfo | null> {
    const input = 'jid' in key ? { key: key.jid, type: 'JID' } : { key: key.invite, type: 'INVITE' }
    const variables = { fetch_creation_time: true, fetch_full_image: true, fetch_viewer_metadata: true, input }
    try {
      return toChannelInfo(await this.#mex(QUERY.metadata, variables, 'the channel query'))
    } catch (error) {
      if (error instanceof EngineError && error.kind === 'not_found') return null
      throw error
    }
  }

  async follow(jid: string): Promise<void> {
    await this.#mex(QUERY.follow, { newsletter_id: jid }, 'the follow')
  }

  async unfollow(jid: string): Promise<void> {
    await this.#mex(QUERY.unfollow, { newsletter_id: jid }, 'the unfollow')
  }

  posts(jid: string, count: number): Promise<ChannelPost[]> {
    // Baileys' newsletterFetchMessages: the newsletter iq's <message_updates>.
    return withNetworkErrors(async () => {
      const answer = await serverQuery(
        this.socket(),
        {
          tag: 'iq',
          attrs: { type: 'get', xmlns: 'newsletter', to: jid },
          content: [{ tag: 'message_updates', attrs: { count: String(count) } }],
        },
        'the channel’s messages query',
      )
      const messages = getBinaryNodeChild(getBinaryNodeChild(answer, 'message_updates'), 'messages')
      const nodes = Array.isArray(messages?.content) ? messages.content : []
      return nodes.flatMap((node) => {
        const plaintext = getBinaryNodeChild(node, 'plaintext')
        if (node.tag !== 'message' || !(plaintext?.content instanceof Uint8Array)) return []
        const post = toChannelPost(jid, node.attrs, proto.Message.decode(plaintext.content))
        return post ? [post] : []
      })
    })
  }

  #mex(query: Query, variables: object, what: string): Promise<unknown> {
    return withNetworkErrors(async () => {
      const answer = await serverQuery(this.socket(), mexIq(query.id, variables), what)
      const result = getBinaryNodeChild(answer, 'result')
      const text = result?.content instanceof Uint8Array ? Buffer.from(result.content).toString('utf-8') : undefined
      let body: {
        data?: Record<string, unknown>
        errors?: { message?: string; extensions?: { error_code?: number } }[]
      }
      try {
        body = JSON.parse(text ?? '')
      } catch {
        throw new EngineError('upstream', `WhatsApp answered ${what} with no readable result`)
      }
      const error = body.errors?.[0]
      if (error) {
        const code = Number(error.extensions?.error_code)
        const message = `WhatsApp refused ${what}: ${String(error.message ?? 'no reason given').slice(0, 200)}`
        if (code === 404) throw new EngineError('not_found', message, 404)
        if (code >= 400 && code < 500) throw new EngineError('refused', message, code)
        throw new EngineError('upstream', message)
      }
      const data = body.data?.[query.path]
      if (data === undefined || data === null)
        throw new EngineError('upstream', `WhatsApp answered ${what} without ${query.path}`)
      return data
    })
  }
}
