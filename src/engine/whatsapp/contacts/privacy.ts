import { type BinaryNode, reduceBinaryNodeToDictionary, S_WHATSAPP_NET, type WASocket } from '@whiskeysockets/baileys'
import type { Logger } from '../../../logger'
import type { PrivacySettings, SessionPrivacy } from '../port/contacts'
import { withNetworkErrors } from '../socket/network-errors'
import { serverQuery } from '../socket/server-query'

/** Each setting's category in WhatsApp's privacy iq. */
const CATEGORY = {
  lastSeen: 'last',
  online: 'online',
  profilePhoto: 'profile',
  about: 'status',
  groups: 'groupadd',
  readReceipts: 'readreceipts',
  calls: 'calladd',
} as const satisfies Record<keyof PrivacySettings, string>

type Setting = keyof PrivacySettings

const privacyIq = (type: 'get' | 'set', categories?: BinaryNode[]): BinaryNode => ({
  tag: 'iq',
  attrs: { xmlns: 'privacy', to: S_WHATSAPP_NET, type },
  content: [{ tag: 'privacy', attrs: {}, ...(categories ? { content: categories } : {}) }],
})

/**
 * The account's privacy settings (SessionHandle.privacy): one get for all, one set per setting
 * changed, in a fixed order, built as Baileys' fetchPrivacySettings and privacyQuery build them
 * but asked through serverQuery, so that silence is a timeout rather than a change made.
 */
export class PrivacyLayer implements SessionPrivacy {
  constructor(
    private readonly socket: () => WASocket,
    private readonly logger: Logger,
  ) {}

  get(): Promise<Partial<PrivacySettings>> {
    return withNetworkErrors(async () => {
      const answer = await serverQuery(this.socket(), privacyIq('get'), 'the privacy query')
      const privacy = Array.isArray(answer.content) ? answer.content[0] : undefined
      const categories = reduceBinaryNodeToDictionary(privacy ?? { tag: 'privacy', attrs: {} }, 'category')
      const settings: Record<string, string> = {}
      for (const [setting, category] of Object.entries(CATEGORY)) {
        const value = categories[category]
        if (typeof value === 'string') settings[setting] = value
      }
      return settings as Partial<PrivacySettings>
    })
  }

  set(changes: Partial<PrivacySettings>): Promise<void> {
    return withNetworkErrors(async () => {
      const socket = this.socket()
      for (const setting of Object.keys(CATEGORY) as Setting[]) {
        const value = changes[setting]
        if (value === undefined) continue
        const category = { tag: 'category', attrs: { name: CATEGORY[setting], value } }
        await serverQuery(socket, privacyIq('set', [category]), `the ${setting} privacy change`)
      }
      // Baileys decides between read and read-self receipts from its own copy of the settings.
      if (changes.readReceipts !== undefined)
        await socket.fetchPrivacySettings(true).catch((error: unknown) => {
          this.logger.warn({ err: error }, 'could not refresh Baileys’ privacy settings after a change')
        })
    })
  }
}
