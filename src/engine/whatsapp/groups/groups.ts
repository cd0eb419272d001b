import { generateMessageIDV2, type BinaryNode, type GroupMetadata, type WASocket } from '@whiskeysockets/baileys'
import { extractGroupMetadata } from '../baileys-internals'
import type { Logger } from '../../../logger'
import { participantNodes, participantOutcomes, toBaileysMetadata, toGroupInfo } from './group-metadata'
import { attachGroupListener } from '../listeners/groups'
import type { ListenerContext } from '../listeners/types'
import { withNetworkErrors } from '../socket/network-errors'
import { EngineError } from '../port'
import type { GroupChange, GroupInfo, ParticipantAction, ParticipantOutcome, SessionGroups } from '../port/groups'

export interface GroupLayerDeps {
  logger: Logger
  /** The logged-in socket; throws EngineError not_connected otherwise. */
  socket(): WASocket
  /** The group as the gateway's store has it. */
  stored(jid: string): GroupInfo | undefined
}

const pn = (phone: string) => `${phone}@s.whatsapp.net`
const child = (node: BinaryNode | undefined, tag: string) =>
  Array.isArray(node?.content) ? node.content.find((c) => c.tag === tag) : undefined

/**
 * One w:g2 query, built as Baileys' lib/Socket/groups.js builds it. Asked here rather than through
 * Baileys' helpers because rc14's query resolves `undefined` when WhatsApp does not answer in
 * time, which those helpers read as an empty answer (no groups at all, no participants changed).
 */
async function groupQuery(socket: WASocket, to: string, type: 'get' | 'set', content: BinaryNode[]) {
  const result = await socket.query({ tag: 'iq', attrs: { type, xmlns: 'w:g2', to }, content })
  if (!result) throw new EngineError('timeout', `WhatsApp did not answer the group query (${content[0]?.tag})`)
  return result
}

const metadataQuery = (socket: WASocket, jid: string) =>
  groupQuery(socket, jid, 'get', [{ tag: 'query', attrs: { request: 'interactive' } }])

const metadataOf = (result: BinaryNode): GroupInfo => toGroupInfo(extractGroupMetadata(result))

/**
 * The groups layer of a session's connection (SessionHandle.groups): the commands, the one
 * query per login that fills the gateway's store, the notifications that keep it fresh, and the
 * store's copy handed to Baileys as `cachedGroupMetadata` so that group sends query nothing.
 */
export class GroupLayer implements SessionGroups {
  #context: ListenerContext | undefined
  #sync: { socket: WASocket; done: Promise<void>; failed: boolean } | undefined

  constructor(private readonly deps: GroupLayerDeps) {}

  /** Baileys' cachedGroupMetadata: undefined (Baileys then asks WhatsApp) for a group the store lacks. */
  readonly cachedMetadata = async (jid: string): Promise<GroupMetadata | undefined> => {
    const group = this.deps.stored(jid)
    return group ? toBaileysMetadata(group) : undefined
  }

  /** A new socket: its notifications, and its sync once it logs in (or WhatsApp says the list is dirty). */
  attach(context: ListenerContext): void {
    this.#context = context
    this.#sync = undefined
    attachGroupListener(context, (jid) => this.#metadata(context.socket, jid))
    context.socket.ev.on('connection.update', (update) => {
      if (update.connection === 'open') this.#startSync(context).catch(() => {})
    })
    context.socket.ws.on('CB:ib,,dirty', (node: BinaryNode) => {
      if (child(node, 'dirty')?.attrs.type === 'groups') this.#startSync(context).catch(() => {})
    })
  }

  synced(): Promise<void> {
    const socket = this.deps.socket()
    const sync = this.#sync
    if (sync && sync.socket === socket && !sync.failed) return sync.done
    const context = this.#context
    if (!context || context.socket !== socket) throw new EngineError('not_connected', 'The session is not connected')
    return this.#startSync(context)
  }

  #startSync(context: ListenerContext): Promise<void> {
    const sync = {
      socket: context.socket,
      failed: false,
      done: withNetworkErrors(async () => {
        const result = await groupQuery(context.socket, '@g.us', 'get', [
          {
            tag: 'participating',
            attrs: {},
            content: [
              { tag: 'participants', attrs: {} },
              { tag: 'description', attrs: {} },
            ],
          },
        ])
        const list = child(result, 'groups')
        if (!list) throw new EngineError('upstream', 'WhatsApp answered the group list without <groups>')
        const groups = (Array.isArray(list.content) ? list.content : [])
          .filter((node) => node.tag === 'group')
          .map((node) => metadataOf({ tag: 'result', attrs: {}, content: [node] }))
        context.report({ type: 'groups-synced', groups })
      }),
    }
    this.#sync = sync
    sync.done.catch((error: unknown) => {
      sync.failed = true
      this.deps.logger.warn({ err: error }, 'could not fetch the groups at login; the next group request asks again')
    })
    return sync.done
  }

  #metadata(socket: WASocket, jid: string): Promise<GroupInfo> {
    return withNetworkErrors(async () => metadataOf(await metadataQuery(socket, jid)))
  }

  info(jid: string): Promise<GroupInfo> {
    return this.#metadata(this.deps.socket(), jid)
  }

  create(subject: string, phones: string[]) {
    return withNetworkErrors(async () => {
      const result = await groupQuery(this.deps.socket(), '@g.us', 'set', [
        {
          tag: 'create',
          attrs: { subject, key: generateMessageIDV2() },
          content: [...new Set(phones)].map((phone) => ({ tag: 'participant', attrs: { jid: pn(phone) } })),
        },
      ])
      const groupNode = child(result, 'group')
      if (!groupNode) throw new EngineError('upstream', 'WhatsApp answered the create without <group>')
      // Those WhatsApp could not add are listed with an `error`: outcomes, never members
      const answered = participantNodes(groupNode)
      const others = Array.isArray(groupNode.content) ? groupNode.content.filter((n) => n.tag !== 'participant') : []
      const members = answered.filter((node) => node.attrs.error === undefined)
      const group = metadataOf({
        tag: 'result',
        attrs: {},
        content: [{ ...groupNode, content: [...others, ...members] }],
      })
      return { group, outcomes: participantOutcomes(phones, answered) }
    })
  }

  updateParticipants(jid: string, action: ParticipantAction, phones: string[]): Promise<ParticipantOutcome[]> {
    return withNetworkErrors(async () => {
      const result = await groupQuery(this.deps.socket(), jid, 'set', [
        {
          tag: action,
          attrs: {},
          content: [...new Set(phones)].map((phone) => ({ tag: 'participant', attrs: { jid: pn(phone) } })),
        },
      ])
      return participantOutcomes(phones, participantNodes(child(result, action)))
    })
  }

  change(jid: string, change: GroupChange, applied: (field: keyof GroupChange) => void = () => {}) {
    return withNetworkErrors(async () => {
      const socket = this.deps.socket()
      if (change.subject !== undefined) {
        await groupQuery(socket, jid, 'set', [
          { tag: 'subject', attrs: {}, content: Buffer.from(change.subject, 'utf8') },
        ])
        applied('subject')
      }
      if (change.description !== undefined) {
        // WhatsApp wants the id of the description it replaces: read it fresh, as Baileys does
        const previous = child(child(await metadataQuery(socket, jid), 'group'), 'description')?.attrs.id
        const text = change.description
        await groupQuery(socket, jid, 'set', [
          {
            tag: 'description',
            attrs: {
              ...(text ? { id: generateMessageIDV2() } : { delete: 'true' }),
              ...(previous ? { prev: previous } : {}),
            },
            ...(text ? { content: [{ tag: 'body', attrs: {}, content: Buffer.from(text, 'utf8') }] } : {}),
          },
        ])
        applied('description')
      }
      if (change.announce !== undefined) {
        await groupQuery(socket, jid, 'set', [
          { tag: change.announce ? 'announcement' : 'not_announcement', attrs: {} },
        ])
        applied('announce')
      }
      if (change.restrict !== undefined) {
        await groupQuery(socket, jid, 'set', [{ tag: change.restrict ? 'locked' : 'unlocked', attrs: {} }])
        applied('restrict')
      }
    })
  }

  inviteCode(jid: string) {
    return this.#invite(jid, 'get')
  }

  revokeInvite(jid: string) {
    return this.#invite(jid, 'set')
  }

  #invite(jid: string, type: 'get' | 'set') {
    return withNetworkErrors(async () => {
      const code = child(await groupQuery(this.deps.socket(), jid, type, [{ tag: 'invite', attrs: {} }]), 'invite')
        ?.attrs.code
      if (!code) throw new EngineError('upstream', 'WhatsApp answered without an invite code')
      return code
    })
  }

  join(code: string) {
    return withNetworkErrors(async () => {
      const result = await groupQuery(this.deps.socket(), '@g.us', 'set', [{ tag: 'invite', attrs: { code } }])
      const jid = child(result, 'group')?.attrs.jid
      if (!jid) throw new EngineError('upstream', 'WhatsApp answered the join without the group')
      return jid
    })
  }

  leave(jid: string) {
    return withNetworkErrors(async () => {
      await groupQuery(this.deps.socket(), '@g.us', 'set', [
        { tag: 'leave', attrs: {}, content: [{ tag: 'group', attrs: { id: jid } }] },
      ])
    })
  }
}
