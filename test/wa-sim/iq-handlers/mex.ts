// xmlns=w:mex: WhatsApp Web's GraphQL over an iq, as Baileys' executeWMexQuery sends it
// (lib/Socket/mex.js): <query query_id> holding JSON {variables}, answered <result> holding JSON
// {data: {<path>: …}} or {errors: [{message, extensions: {error_code}}]}. Only the channel
// (newsletter) queries are known: any other id, or a query that is not JSON with the variables
// its id needs, is a 400 and a malformed-node violation, as the real server refuses it.
// xmlns=newsletter: a channel's recent posts (<message_updates>, Baileys' newsletterFetchMessages)
// and its live updates (<live_updates>).
import type { BinaryNode } from '@whiskeysockets/baileys'
import type { Account } from '../account'
import { channelMetadata, postNode, type Channel } from '../channels'
import { childOf, contentBytes, iqError, iqResult, isServerJid } from '../node-utils'
import type { SimState } from '../state'

/** Query ids: Baileys 7's lib/Types/Mex.js, and whatsmeow's for the subscribed list (newsletter.go). */
export const MEX_QUERY = {
  metadata: '6563316087068696',
  follow: '24404358912487870',
  unfollow: '9767147403369991',
  subscribed: '6388546374527196',
} as const

type Answer = { data: Record<string, unknown> } | { errors: { message: string; extensions: { error_code: number } }[] }

const refusal = (code: number, message: string): Answer => ({ errors: [{ message, extensions: { error_code: code } }] })
const INVITE_CODE = /^[A-Za-z0-9]{10,40}$/
const CHANNEL_JID = /^\d{1,30}@newsletter$/

export const handleMexIq = (state: SimState, account: Account, node: BinaryNode): BinaryNode => {
  const malformed = (why: string) => {
    state.violations.record(account.phone, 'malformed-node', `w:mex iq: ${why}`)
    return iqError(node, 400, 'bad-request')
  }
  if (!isServerJid(node.attrs.to) || node.attrs.type !== 'get') return malformed('not a get to the server')
  const query = childOf(node, 'query')
  const queryId = query?.attrs.query_id
  let variables: Record<string, unknown>
  try {
    const parsed = JSON.parse(contentBytes(query)?.toString('utf-8') ?? '') as { variables?: unknown }
    if (typeof parsed.variables !== 'object' || parsed.variables === null) return malformed('no variables')
    variables = parsed.variables as Record<string, unknown>
  } catch {
    return malformed('a <query> whose content is not JSON')
  }
  const answer = answerQuery(state, account, queryId, variables)
  if (typeof answer === 'string') return malformed(answer)
  return iqResult(node, [{ tag: 'result', attrs: {}, content: Buffer.from(JSON.stringify(answer), 'utf-8') }])
}

function answerQuery(
  state: SimState,
  account: Account,
  queryId: string | undefined,
  variables: Record<string, unknown>,
): Answer | string {
  const byJid = (): Channel | Answer | string => {
    const jid = variables.newsletter_id
    if (typeof jid !== 'string' || !CHANNEL_JID.test(jid)) return `newsletter_id "${String(jid).slice(0, 40)}"`
    return state.channels.get(jid) ?? refusal(404, 'Newsletter not found')
  }
  switch (queryId) {
    case MEX_QUERY.metadata: {
      const input = variables.input as { key?: unknown; type?: unknown } | undefined
      const key = input?.key
      if (typeof key !== 'string') return 'metadata without input.key'
      let channel: Channel | undefined
      if (input?.type === 'INVITE') {
        if (!INVITE_CODE.test(key)) return refusal(400, 'Invalid invite code')
        channel = [...state.channels.values()].find((c) => c.inviteCode === key)
      } else if (input?.type === 'JID') {
        if (!CHANNEL_JID.test(key)) return refusal(400, 'Invalid newsletter jid')
        channel = state.channels.get(key)
      } else return `metadata of type "${String(input?.type).slice(0, 20)}"`
      if (!channel) return refusal(404, 'Newsletter not found')
      return { data: { xwa2_newsletter: channelMetadata(channel, account.phone) } }
    }
    case MEX_QUERY.follow: {
      const channel = byJid()
      if (typeof channel === 'string' || !('jid' in channel)) return channel
      if (channel.owner !== account.phone && !channel.admins.has(account.phone)) channel.followers.add(account.phone)
      return { data: { xwa2_newsletter_join_v2: { id: channel.jid } } }
    }
    case MEX_QUERY.unfollow: {
      const channel = byJid()
      if (typeof channel === 'string' || !('jid' in channel)) return channel
      // An owner cannot leave its own channel (it deletes it instead).
      if (channel.owner === account.phone) return refusal(403, 'The owner cannot unfollow its channel')
      channel.followers.delete(account.phone)
      channel.admins.delete(account.phone)
      return { data: { xwa2_newsletter_leave_v2: { id: channel.jid } } }
    }
    case MEX_QUERY.subscribed: {
      const mine = [...state.channels.values()].filter(
        (c) => c.owner === account.phone || c.admins.has(account.phone) || c.followers.has(account.phone),
      )
      return { data: { xwa2_newsletter_subscribed: mine.map((c) => channelMetadata(c, account.phone)) } }
    }
    default:
      return `unknown query_id "${String(queryId).slice(0, 30)}"`
  }
}

/** The newsletter iq: <message_updates count since? after?> of a channel, newest last. */
export const handleNewsletterIq = (state: SimState, account: Account, node: BinaryNode): BinaryNode => {
  const malformed = (why: string) => {
    state.violations.record(account.phone, 'malformed-node', `newsletter iq: ${why}`)
    return iqError(node, 400, 'bad-request')
  }
  const to = node.attrs.to ?? ''
  if (!CHANNEL_JID.test(to)) return malformed(`"to" is ${to.slice(0, 40) || 'missing'}`)
  const channel = state.channels.get(to)
  if (childOf(node, 'live_updates') && node.attrs.type === 'set') {
    if (!channel) return iqError(node, 404, 'item-not-found')
    return iqResult(node, [{ tag: 'live_updates', attrs: { duration: '300' } }])
  }
  const updates = childOf(node, 'message_updates')
  if (!updates || node.attrs.type !== 'get') return malformed('neither <message_updates> get nor <live_updates> set')
  const count = Number(updates.attrs.count)
  if (!Number.isInteger(count) || count < 1 || count > 100) return malformed(`count "${updates.attrs.count}"`)
  if (!channel) return iqError(node, 404, 'item-not-found')
  const since = updates.attrs.since ? Number(updates.attrs.since) : 0
  const after = updates.attrs.after ? Number(updates.attrs.after) : 0
  const posts = channel.posts.filter((p) => p.timestamp >= since && p.serverId > after).slice(-count)
  return iqResult(node, [
    { tag: 'message_updates', attrs: {}, content: [{ tag: 'messages', attrs: {}, content: posts.map(postNode) }] },
  ])
}
