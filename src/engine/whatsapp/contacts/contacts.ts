import { jidDecode, S_WHATSAPP_NET, USyncQuery, USyncUser, type WASocket } from '@whiskeysockets/baileys'
import { toAbout, toBlockedUsers, toBusinessProfile } from './contact-profile'
import { withNetworkErrors } from '../socket/network-errors'
import { setOwnAbout, setOwnName, setOwnPicture } from './own-profile'
import { lookupPhone, phoneForLid } from '../messages/recipients'
import { answeredCode, serverQuery } from '../socket/server-query'
import { EngineError } from '../port'
import type { BlockedUser, ContactProfile, SessionContacts } from '../port/contacts'

export interface ContactLayerDeps {
  /** The logged-in socket; throws EngineError not_connected otherwise. */
  socket(): WASocket
  /** Baileys' query timeout (defaultQueryTimeoutMs). */
  queryTimeoutMs: number
}

interface ProfileRow {
  id: string
  contact?: boolean
  lid?: string
  status?: { status?: string | null; setAt?: Date }
}

const userOf = (jid: string | null | undefined) => (jid ? jidDecode(jid)?.user : undefined)
const isLid = (jid: string) => jid.endsWith('@lid')

/**
 * The contacts layer of a session's connection (SessionHandle.contacts): other people's profiles,
 * the block list, and the account's own name, about and photo. Queries are built as Baileys'
 * lib/Socket/chats.js builds them; where its helper would read a timeout as an answer, the query
 * is asked here (server-query.ts).
 */
export class ContactLayer implements SessionContacts {
  constructor(private readonly deps: ContactLayerDeps) {}

  profile(jid: string): Promise<ContactProfile | null> {
    return withNetworkErrors(async () => {
      const socket = this.deps.socket()
      // One usync for "is there an account", its LID and its about, as WhatsApp Web asks it
      const query = new USyncQuery().withContactProtocol().withLIDProtocol().withStatusProtocol()
      query.withUser(isLid(jid) ? new USyncUser().withId(jid) : new USyncUser().withPhone(`+${userOf(jid)}`))
      const result = await socket.executeUSyncQuery(query)
      if (!result) throw new EngineError('timeout', 'WhatsApp did not answer the profile query in time')
      const row = result.list[0] as ProfileRow | undefined
      if (!row?.contact) return null
      const lid = isLid(jid) ? userOf(jid) : userOf(row.lid)
      const phone = isLid(jid) ? await phoneForLid(socket, jid) : userOf(row.id)
      if (!isLid(jid) && row.lid)
        await socket.signalRepository.lidMapping.storeLIDPNMappings([{ lid: row.lid, pn: row.id }])
      const target = isLid(jid) ? jid : row.id
      const [pictureUrl, business] = await Promise.all([
        this.#pictureUrl(socket, target),
        this.#business(socket, target),
      ])
      const about = toAbout(row.status)
      return {
        ...(phone ? { phone } : {}),
        ...(lid ? { lid } : {}),
        ...(about ? { about } : {}),
        ...(pictureUrl ? { pictureUrl } : {}),
        ...(business ? { business } : {}),
      }
    })
  }

  /** The full-size photo's URL; none when there is none (404) or its owner hides it from this account (401). */
  async #pictureUrl(socket: WASocket, jid: string): Promise<string | undefined> {
    try {
      const url = await socket.profilePictureUrl(jid, 'image')
      // WhatsApp answers a photo or an error: nothing at all is rc14's query timing out
      if (url === undefined) throw new EngineError('timeout', 'WhatsApp did not answer the photo query in time')
      return url
    } catch (error) {
      const code = answeredCode(error)
      if (code === 401 || code === 404) return undefined
      throw error
    }
  }

  async #business(socket: WASocket, jid: string) {
    const result = await serverQuery(
      socket,
      {
        tag: 'iq',
        attrs: { to: 's.whatsapp.net', xmlns: 'w:biz', type: 'get' },
        content: [{ tag: 'business_profile', attrs: { v: '244' }, content: [{ tag: 'profile', attrs: { jid } }] }],
      },
      'the business profile query',
    )
    return toBusinessProfile(result)
  }

  setBlocked(jid: string, blocked: boolean): Promise<BlockedUser | null> {
    return withNetworkErrors(async () => {
      const socket = this.deps.socket()
      let phone: string | undefined
      let lid: string | undefined
      if (isLid(jid)) {
        lid = userOf(jid)
        phone = await phoneForLid(socket, jid)
        // WhatsApp wants the number with a block (pn_jid), as Baileys' updateBlockStatus sends it
        if (blocked && !phone)
          throw new EngineError('not_found', `this account does not know the number behind ${jid}`, 404)
      } else {
        const found = await lookupPhone(socket, jid)
        if (!found.exists) return null
        phone = userOf(jid)
        lid = found.lid
        if (!lid) throw new EngineError('upstream', 'WhatsApp gave no LID for this number, and blocks go by LID')
      }
      await serverQuery(
        socket,
        {
          tag: 'iq',
          attrs: { xmlns: 'blocklist', to: S_WHATSAPP_NET, type: 'set' },
          content: [
            {
              tag: 'item',
              attrs: {
                action: blocked ? 'block' : 'unblock',
                jid: `${lid}@lid`,
                ...(blocked ? { pn_jid: `${phone}@s.whatsapp.net` } : {}),
              },
            },
          ],
        },
        blocked ? 'the block' : 'the unblock',
      )
      return { ...(phone ? { phone } : {}), ...(lid ? { lid } : {}) }
    })
  }

  subscribePresence(jid: string): Promise<void> {
    // Baileys adds the privacy token (tctoken) the account holds for the person, as WhatsApp asks
    return withNetworkErrors(() => this.deps.socket().presenceSubscribe(jid))
  }

  unsubscribePresence(jid: string): Promise<void> {
    // Baileys has no helper for it; WhatsApp Web sends this when a chat is closed
    return withNetworkErrors(() =>
      this.deps.socket().sendNode({ tag: 'presence', attrs: { to: jid, type: 'unsubscribe' } }),
    )
  }

  blocked(): Promise<BlockedUser[]> {
    return withNetworkErrors(async () => {
      const socket = this.deps.socket()
      const result = await serverQuery(
        socket,
        { tag: 'iq', attrs: { xmlns: 'blocklist', to: S_WHATSAPP_NET, type: 'get' } },
        'the block list query',
      )
      // An item may name only the LID: the number, where this account learned it
      return Promise.all(
        toBlockedUsers(result).map(async (user) => {
          if (user.phone || !user.lid) return user
          const phone = await phoneForLid(socket, `${user.lid}@lid`)
          return phone ? { phone, ...user } : user
        }),
      )
    })
  }

  get canSetName(): boolean {
    try {
      return Boolean(this.deps.socket().authState.creds.myAppStateKeyId)
    } catch {
      return false
    }
  }

  setName(name: string) {
    return withNetworkErrors(() => setOwnName(this.deps.socket(), name, this.deps.queryTimeoutMs))
  }

  setAbout(text: string) {
    return withNetworkErrors(() => setOwnAbout(this.deps.socket(), text))
  }

  setPicture(jpeg: Uint8Array | null) {
    return withNetworkErrors(() => setOwnPicture(this.deps.socket(), jpeg))
  }
}
